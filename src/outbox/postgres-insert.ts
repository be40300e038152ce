import { RequestValidationError } from '../index.js';
import type { PostgresQueryable } from './postgres.js';
import { NOW } from './postgres-life.js';
import { notInserted, rowFrom, tombstoneFrom } from './record.js';
import { COLUMN_NAMES, JSON_COLUMNS, named, TIME_COLUMNS } from './sql.js';
import { tombstonesOf } from './sql-tombstones.js';
import type { InsertResult, OutboxRow } from './types.js';

const TIMES = new Set(['created_at', 'updated_at', 'next_attempt_at']);

/**
 * The PostgreSQL store's `insert`: the remark reserved for good, then, in one statement, the reference reserved
 * for good in the tombstones table and the row added only if that reservation is new. A reference is reserved
 * once, so a row deleted while this runs (its tombstone not yet committed) is never added back: the conflict is
 * on a reservation that is never deleted, not on the row being deleted.
 */
export function postgresInsert(client: PostgresQueryable, table: string) {
  const remarks = named(table, 'remarks');
  const tombstones = tombstonesOf(table);
  return async (row: OutboxRow, tx?: PostgresQueryable): Promise<InsertResult> => {
    const on = tx ?? client;
    if (tx) {
      // In autocommit every statement is its own transaction, so its start is the transaction's.
      const [state] = (await tx.query('SELECT now() = statement_timestamp() AS autocommit')).rows;
      if (state?.autocommit === true) {
        const message =
          'is not inside a transaction (autocommit): run BEGIN on this client first, or leave tx out to record the payout on its own';
        throw new RequestValidationError([{ path: ['tx'], message }]);
      }
    }
    if (row.remark_key !== null) {
      const holder = await reserve(on, row.remark_key, row.reference);
      if (holder !== row.reference) return { inserted: false, remarkTakenBy: holder };
    }
    // Times from the database's clock, so a fresh row is due at once by the workers' reckoning.
    const values: unknown[] = [];
    const exprs = COLUMN_NAMES.map((c) => (TIMES.has(c) ? NOW : `$${values.push(value(row, c))}`));
    const reference = `$${COLUMN_NAMES.indexOf('reference') + 1}`;
    const { rows: added } = await on.query(
      `WITH reserved AS (INSERT INTO ${tombstones} (reference, created_at) VALUES (${reference}, ${NOW})
         ON CONFLICT (reference) DO NOTHING RETURNING reference)
       INSERT INTO ${table} (${COLUMN_NAMES.join(', ')}) SELECT ${exprs.join(', ')} FROM reserved
       ON CONFLICT (reference) DO NOTHING RETURNING *`,
      values,
    );
    if (added[0]) return { inserted: true, row: rowFrom(added[0]) };
    const { rows: live } = await on.query(`SELECT * FROM ${table} WHERE reference = $1`, [row.reference]);
    const { rows: kept } = live[0]
      ? { rows: [] }
      : await on.query(`SELECT * FROM ${tombstones} WHERE reference = $1`, [row.reference]);
    const archived = kept[0] && tombstoneFrom(kept[0]);
    const { result, giveBack } = notInserted(row, live[0] && rowFrom(live[0]), archived);
    if (giveBack) {
      await on.query(`DELETE FROM ${remarks} WHERE remark_key = $1 AND reference = $2`, [
        row.remark_key,
        row.reference,
      ]);
    }
    return result;
  };

  /** Reserves `key` for `reference`; the reference holding it (`reference` itself when reserved now or before). */
  async function reserve(on: PostgresQueryable, key: string, reference: string): Promise<string> {
    // Twice at most: a reservation under way elsewhere is invisible to this statement's snapshot until it ends.
    for (let tries = 0; ; tries++) {
      const { rows: held } = await on.query(
        `WITH taken AS (INSERT INTO ${remarks} (remark_key, reference, created_at) VALUES ($1, $2, ${NOW})
           ON CONFLICT (remark_key) DO NOTHING RETURNING reference)
         SELECT reference FROM taken UNION ALL SELECT reference FROM ${remarks} WHERE remark_key = $1 LIMIT 1`,
        [key, reference],
      );
      const holder = held[0]?.reference;
      if (typeof holder === 'string' || tries > 0) return String(holder ?? reference);
    }
  }
}

/** A row's value for a column, as the driver takes it (JSON as text, times as Dates). */
function value(row: OutboxRow, column: (typeof COLUMN_NAMES)[number]): unknown {
  const v = row[column];
  if (JSON_COLUMNS.has(column)) return v === null ? null : JSON.stringify(v);
  if (TIME_COLUMNS.has(column)) return v === null ? null : new Date(v as number);
  return v;
}
