import { RequestValidationError } from '../index.js';
import { notInserted, rowFrom, tombstoneFrom } from './record.js';
import { COLUMN_NAMES, JSON_COLUMNS, named } from './sql.js';
import { tombstonesOf } from './sql-tombstones.js';
import type { SqliteDatabase, SqliteValue } from './sqlite.js';
import type { InsertResult, OutboxRow } from './types.js';

type Statement = (sql: string, on?: SqliteDatabase) => ReturnType<SqliteDatabase['prepare']>;

/**
 * The SQLite store's `insert`: the remark reserved for good, then the row, unless its reference is live or has
 * a tombstone (checked in the statement that inserts, under SQLite's one write lock, so a delete cannot come
 * between). Synchronous up to its result, so an enqueue inside the caller's open transaction is part of it.
 */
export function sqliteInsert(table: string, clock: () => number, statement: Statement) {
  const remarks = named(table, 'remarks');
  const tombstones = tombstonesOf(table);
  const rows = (sql: string, params: SqliteValue[], on: SqliteDatabase | undefined) =>
    statement(sql, on)
      .all(...params)
      .map((r) => rowFrom(r as Record<string, unknown>));
  return async (row: OutboxRow, tx?: SqliteDatabase): Promise<InsertResult> => {
    const on = tx; // undefined: the store's own handle
    if (tx && tx.isTransaction === false) {
      const message =
        'is not inside a transaction: run BEGIN on this database first, or leave tx out to record the payout on its own';
      throw new RequestValidationError([{ path: ['tx'], message }]);
    }
    const t = clock();
    if (row.remark_key !== null) {
      statement(`INSERT INTO ${remarks} VALUES (?, ?, ?) ON CONFLICT (remark_key) DO NOTHING`, on).all(
        row.remark_key,
        row.reference,
        t,
      );
      const holder = statement(`SELECT reference FROM ${remarks} WHERE remark_key = ?`, on).get(
        row.remark_key,
      ) as { reference: string };
      if (holder.reference !== row.reference) return { inserted: false, remarkTakenBy: holder.reference };
    }
    const stamped = { ...row, created_at: t, updated_at: t, next_attempt_at: t };
    const [inserted] = rows(
      `INSERT INTO ${table} (${COLUMN_NAMES.join(', ')}) SELECT ${COLUMN_NAMES.map(() => '?').join(', ')}
       WHERE NOT EXISTS (SELECT 1 FROM ${tombstones} WHERE reference = ?)
       ON CONFLICT (reference) DO NOTHING RETURNING *`,
      [...COLUMN_NAMES.map((c) => sqliteValue(stamped, c)), row.reference],
      on,
    );
    if (inserted) return { inserted: true, row: inserted };
    const [existing] = rows(`SELECT * FROM ${table} WHERE reference = ?`, [row.reference], on);
    const archived = existing
      ? undefined
      : statement(`SELECT * FROM ${tombstones} WHERE reference = ?`, on).get(row.reference);
    const { result, giveBack } = notInserted(
      row,
      existing,
      archived ? tombstoneFrom(archived as Record<string, unknown>) : undefined,
    );
    if (giveBack) {
      statement(`DELETE FROM ${remarks} WHERE remark_key = ? AND reference = ?`, on).all(
        row.remark_key,
        row.reference,
      );
    }
    return result;
  };
}

/** A row's value for a column, as `node:sqlite` binds it (JSON as text, booleans as 0/1). */
function sqliteValue(row: OutboxRow, column: (typeof COLUMN_NAMES)[number]): SqliteValue {
  const v = row[column];
  if (JSON_COLUMNS.has(column)) return v === null ? null : JSON.stringify(v);
  if (typeof v === 'boolean') return Number(v);
  return v as SqliteValue;
}
