import { remarkKey } from '../payouts/proof/payout-identity.js';
import { ADDED_COLUMNS, COLUMN_NAMES, DOUBTED_BEFORE, mainTable, named, sqliteColumn } from './sql.js';
import type { SqliteDatabase } from './sqlite.js';

/**
 * A table of an earlier version, in place (inside `migrate`'s transaction): the columns added since, `doubted` set
 * for the rows that may have been in doubt, each `match_remark` copied to the remarks table under its key
 * (`remarkKey`, computed here as every new row's is), and a state check that predates a state rebuilt.
 */
export function upgradeSqlite(db: SqliteDatabase, table: string, remarks: string): void {
  const have = new Set(
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
  );
  for (const column of ADDED_COLUMNS) {
    if (!have.has(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${sqliteColumn(column)}`);
  }
  if (!have.has('doubted')) {
    db.exec(`ALTER TABLE ${table} ADD COLUMN doubted ${sqliteColumn('doubted')}`);
    db.exec(`UPDATE ${table} SET doubted = 1 WHERE ${DOUBTED_BEFORE}`);
  }
  if (have.has('match_remark')) keyRemarks(db, table, remarks);
  widenStateCheck(db, table);
}

/** First-version rows' `match_remark`, reserved under its key and kept in `remark_key`. */
function keyRemarks(db: SqliteDatabase, table: string, remarks: string): void {
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

/**
 * SQLite cannot alter a check: a table whose state check predates `cancelled` is copied into one made as today's,
 * which then takes its name (SQLite's own recipe for a schema change). Its indexes and its trigger go with the old
 * table; `migrate` makes them again next. The first version's `match_remark` (keyed above) is left behind.
 */
function widenStateCheck(db: SqliteDatabase, table: string): void {
  const dot = table.indexOf('.');
  const [schema, bare] = dot < 0 ? ['', table] : [table.slice(0, dot + 1), table.slice(dot + 1)];
  const found = db
    .prepare(`SELECT sql FROM ${schema}sqlite_master WHERE type = 'table' AND name = ?`)
    .get(bare) as { sql: string } | undefined;
  if (!found || found.sql.includes(`'cancelled'`)) return;
  const rebuilt = named(table, 'rebuild');
  const columns = COLUMN_NAMES.join(', ');
  db.exec(`DROP TRIGGER IF EXISTS ${schema}${bare}_tombstone`);
  db.exec(`DROP TABLE IF EXISTS ${rebuilt}`);
  db.exec(mainTable(rebuilt, 1));
  db.exec(`INSERT INTO ${rebuilt} (${columns}) SELECT ${columns} FROM ${table}`);
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${rebuilt} RENAME TO ${bare}`);
}
