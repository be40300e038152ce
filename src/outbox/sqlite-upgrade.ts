import { remarkKey } from '../payouts/proof/payout-identity.js';
import { ADDED_COLUMNS, sqliteColumn } from './sql.js';
import type { SqliteDatabase } from './sqlite.js';

/**
 * A table of the first version, in place (inside `migrate`'s transaction): the columns added since, and each
 * `match_remark` copied to the remarks table under its key (`remarkKey`, computed here as every new row's is).
 * The old column stays (SQLite cannot drop a UNIQUE column); new rows leave it empty.
 */
export function upgradeSqlite(db: SqliteDatabase, table: string, remarks: string): void {
  const have = new Set(
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
  );
  for (const column of ADDED_COLUMNS) {
    if (!have.has(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${sqliteColumn(column)}`);
  }
  if (!have.has('match_remark')) return;
  const old = db
    .prepare(
      `SELECT reference, match_remark, created_at FROM ${table} WHERE match_remark IS NOT NULL AND remark_key IS NULL`,
    )
    .all() as {
    reference: string;
    match_remark: string;
    created_at: number;
  }[];
  const reserve = db.prepare(`INSERT INTO ${remarks} VALUES (?, ?, ?) ON CONFLICT (remark_key) DO NOTHING`);
  const keep = db.prepare(`UPDATE ${table} SET remark_key = ? WHERE reference = ?`);
  for (const row of old) {
    const key = remarkKey(row.match_remark);
    reserve.all(key, row.reference, row.created_at);
    keep.all(key, row.reference);
  }
}
