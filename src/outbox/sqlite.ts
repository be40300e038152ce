import { COLUMNS, checkTable, DEFAULT_OUTBOX_TABLE, rowValues, sqliteOutboxSchema, toRow } from './sql.js';
import type { OutboxRow, PayoutOutboxStore, PayoutState } from './types.js';

/** A value `node:sqlite` binds to a statement parameter. */
export type SqliteValue = null | number | bigint | string | Uint8Array;

/** What the SQLite store needs of a database: the shape of `node:sqlite`'s `DatabaseSync`. */
export interface SqliteDatabase {
  /** Runs statements without parameters. */
  exec(sql: string): void;
  /** Compiles a statement with `?` parameters. */
  prepare(sql: string): {
    /** Every row the statement returns. */
    all(...params: SqliteValue[]): unknown[];
    /** The first row the statement returns. */
    get(...params: SqliteValue[]): unknown;
  };
}

/** Options of `sqliteOutboxStore`. */
export interface SqliteOutboxStoreOptions {
  /** A `DatabaseSync` from `node:sqlite`, opened on a file (several processes may open the same one). */
  database: SqliteDatabase;
  /** Default `payout_outbox`. */
  table?: string;
  /** Milliseconds to wait for another process's write lock before failing. Default 10,000. */
  busyTimeoutMs?: number;
  /** The clock, epoch ms (one machine: every process reads the same one). Default `Date.now`. */
  now?: () => number;
}

/**
 * The outbox on SQLite, for one machine: several processes on one file. Each claim, mark and write is a single
 * statement, which SQLite runs under its one write lock, so two processes cannot both take a row; they queue
 * for the lock (`busy_timeout`) rather than fail. `migrate()` turns on WAL, so readers never block the writer.
 */
export function sqliteOutboxStore(options: SqliteOutboxStoreOptions): PayoutOutboxStore<SqliteDatabase> {
  const { database: db } = options;
  const table = checkTable(options.table ?? DEFAULT_OUTBOX_TABLE);
  const now = options.now ?? Date.now;
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 10_000))}`);
  const cache = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  const statement = (sql: string) => {
    let prepared = cache.get(sql);
    if (!prepared) {
      prepared = db.prepare(sql);
      cache.set(sql, prepared);
    }
    return prepared;
  };
  const rows = (sql: string, ...params: SqliteValue[]) =>
    statement(sql)
      .all(...params)
      .map((r) => toRow(r as Record<string, unknown>));
  const OPEN = `state IN ('pending', 'sending', 'retry')`;
  const FREE = `(lease_until IS NULL OR lease_until < ?)`;
  const lease = `owner = ?, token = token + 1, lease_until = ?`;

  return {
    async migrate() {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(sqliteOutboxSchema(table));
    },
    // Synchronous up to its result, so an enqueue inside the caller's open BEGIN ... COMMIT on this same
    // database is part of that transaction (`tx` is that database, or nothing).
    async insert(row: OutboxRow) {
      const t = now();
      const stamped = { ...row, created_at: t, updated_at: t, next_attempt_at: t, token: 0 };
      const values = rowValues(stamped, true) as SqliteValue[];
      const inserted = rows(
        `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})
         ON CONFLICT DO NOTHING RETURNING *`,
        ...values,
      );
      if (inserted.length > 0) return { inserted: true };
      const [existing] = rows(`SELECT * FROM ${table} WHERE reference = ?`, row.reference);
      return existing ? { inserted: false, existing } : { inserted: false, remarkTaken: true };
    },
    async claim(owner, leaseMs, reference, limit = 1) {
      const t = now();
      if (reference !== undefined) {
        return rows(
          `UPDATE ${table} SET ${lease} WHERE reference = ? AND ${OPEN} AND ${FREE} AND next_attempt_at <= ?
           RETURNING *`,
          owner,
          t + leaseMs,
          reference,
          t,
          t,
        );
      }
      return rows(
        `UPDATE ${table} SET ${lease} WHERE reference IN (
           SELECT reference FROM ${table} WHERE ${OPEN} AND ${FREE} AND next_attempt_at <= ?
           ORDER BY next_attempt_at LIMIT ?)
         RETURNING *`,
        owner,
        t + leaseMs,
        t,
        t,
        limit,
      );
    },
    async mark(reference, token, leaseMs) {
      const t = now();
      const marked = rows(
        `UPDATE ${table} SET state = 'sending', sends = sends + 1, lease_until = ?, updated_at = ?
         WHERE reference = ? AND token = ? RETURNING *`,
        t + leaseMs,
        t,
        reference,
        token,
      );
      return marked.length === 1;
    },
    async write(reference, token, change) {
      const t = now();
      const written = rows(
        `UPDATE ${table} SET state = ?, lookups = ?, accepted = ?, reason = ?, result = ?, attempts = ?,
           next_attempt_at = ?, updated_at = ?, lease_until = NULL, owner = NULL
         WHERE reference = ? AND token = ? RETURNING *`,
        change.state,
        change.lookups,
        Number(change.accepted),
        change.reason,
        change.result,
        change.attempts,
        t + Math.round(change.delayMs),
        t,
        reference,
        token,
      );
      return written.length === 1;
    },
    async get(reference) {
      return rows(`SELECT * FROM ${table} WHERE reference = ?`, reference)[0];
    },
    async list({ state, limit, after }: { state?: PayoutState; limit: number; after?: string }) {
      return rows(
        `SELECT * FROM ${table} WHERE (?1 IS NULL OR state = ?1)
           AND (?3 IS NULL OR (created_at, reference) > (SELECT created_at, reference FROM ${table} WHERE reference = ?3))
         ORDER BY created_at, reference LIMIT ?2`,
        state ?? null,
        limit,
        after ?? null,
      );
    },
  };
}
