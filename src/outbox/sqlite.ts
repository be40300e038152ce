import { OutboxEnvironmentError } from './environment-error.js';
import { rowFrom, tally, tombstoneFrom } from './record.js';
import { checkTable, DEFAULT_OUTBOX_TABLE, dueIndex, named, sqliteIndexes, sqliteTables } from './sql.js';
import { archiveSql, seedTombstones, sqliteTombstones, tombstonesOf } from './sql-tombstones.js';
import { groupCommit } from './sqlite-group-commit.js';
import { sqliteInsert } from './sqlite-insert.js';
import { sqliteLife } from './sqlite-life.js';
import { upgradeSqlite } from './sqlite-upgrade.js';
import type { OutboxRow, PayoutOutboxStore } from './types.js';

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
  /** Whether a transaction is open on this handle (`node:sqlite` 22.16 and later). */
  readonly isTransaction?: boolean;
}

/** Options of `sqliteOutboxStore`. */
export interface SqliteOutboxStoreOptions {
  /** A `DatabaseSync` from `node:sqlite`, opened on a file (several processes may open the same one). */
  database: SqliteDatabase;
  /** Default `payout_outbox` (and `payout_outbox_remarks`). */
  table?: string;
  /** Milliseconds to wait for another process's write lock before failing. Default 10,000. */
  busyTimeoutMs?: number;
  /** The clock, epoch ms (one machine: every process reads the same one). Default `Date.now`. */
  now?: () => number;
}

const OPEN = `state IN ('pending', 'sending', 'retry')`;
const FREE = `(lease_until IS NULL OR lease_until < ?)`;
const SENT_AT = 'coalesce(first_sent_at, created_at)';

/**
 * The outbox on SQLite, for one machine: several processes on one file. Each claim, mark and write is a single
 * statement, which SQLite runs under its one write lock, so two processes cannot both take a row; they queue
 * for the lock (`busy_timeout`) rather than fail. `migrate()` turns on WAL, so readers never block the writer.
 * A process frozen inside a write transaction blocks every writer of the file, the merchant's own included.
 */
export function sqliteOutboxStore(options: SqliteOutboxStoreOptions): PayoutOutboxStore<SqliteDatabase> {
  const { database: db } = options;
  const table = checkTable(options.table ?? DEFAULT_OUTBOX_TABLE);
  const remarks = named(table, 'remarks');
  const clock = options.now ?? Date.now;
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 10_000))}`);
  // Statements compiled once per handle: the store's own, and any transaction handle an enqueue names.
  const caches = new WeakMap<SqliteDatabase, Map<string, ReturnType<SqliteDatabase['prepare']>>>();
  const statement = (sql: string, on: SqliteDatabase = db) => {
    const cache = caches.get(on) ?? new Map<string, ReturnType<SqliteDatabase['prepare']>>();
    caches.set(on, cache);
    const prepared = cache.get(sql) ?? on.prepare(sql);
    cache.set(sql, prepared);
    return prepared;
  };
  const rows = (sql: string, params: SqliteValue[], on: SqliteDatabase = db) =>
    statement(sql, on)
      .all(...params)
      .map((r) => rowFrom(r as Record<string, unknown>));
  const lease = `owner = ?, token = token + 1, lease_until = ?`;
  const answers = groupCommit(db);
  /**
   * A claim or a mark inside a transaction of the caller's on this handle would commit or roll back with it,
   * after the POST left: rolled back, the payout would look never sent (and one enqueued in it would be sent,
   * then erased). Refused until the transaction ends; the worker loop tries again at its next turn.
   */
  const outsideTransaction = () => {
    if (db.isTransaction !== true) return;
    const message =
      "is inside a transaction (a BEGIN not yet committed on the store's handle): the outbox claims and marks payouts outside it, once it ends; give the store a DatabaseSync of its own to settle payouts meanwhile";
    throw new OutboxEnvironmentError('database', message);
  };
  /** Marks a row the caller's token holds (one more send, its times) and sets its lease; whether it did. */
  const markRow = (row: Pick<OutboxRow, 'reference' | 'token'>, t: number, until: number) =>
    statement(
      `UPDATE ${table} SET state = 'sending', sends = sends + 1, lease_until = ?, updated_at = ?,
         first_sent_at = COALESCE(first_sent_at, ?), last_sent_at = ?
       WHERE reference = ? AND token = ? RETURNING reference`,
    ).all(until, t, t, t, row.reference, row.token).length === 1;

  return {
    async migrate() {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('BEGIN IMMEDIATE');
      try {
        const tombstones = tombstonesOf(table);
        const kept = db.prepare(`PRAGMA table_info(${tombstones})`).all().length > 0;
        db.exec(sqliteTables(table));
        upgradeSqlite(db, table, remarks);
        // After the upgrade: the trigger copies columns it adds, and some indexes are on them.
        db.exec(sqliteTombstones(table));
        if (!kept) db.exec(seedTombstones(table));
        db.exec(sqliteIndexes(table));
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    insert: sqliteInsert(table, clock, statement),
    async archive(before, limit) {
      const gone = statement(archiveSql(table, '?', '?')).all(before, before, limit) as {
        reference: string;
      }[];
      return gone.map((r) => r.reference);
    },
    async tombstone(reference) {
      const found = statement(
        `SELECT * FROM ${tombstonesOf(table)} b
         WHERE reference = ? AND NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.reference = b.reference)`,
      ).get(reference);
      return found ? tombstoneFrom(found as Record<string, unknown>) : undefined;
    },
    async claim(owner, leaseMs, reference, limit = 1, markFresh = false) {
      outsideTransaction();
      const t = clock();
      // The claim changes neither state nor counters, so its rows say which are fresh; those are marked next,
      // fenced by the token just taken. One transaction (one commit) unless the handle is inside one already.
      const own = markFresh && db.isTransaction === false; // (undefined before Node 22.16: two commits)
      if (own) db.exec('BEGIN IMMEDIATE');
      try {
        const claimed =
          reference !== undefined
            ? rows(
                `UPDATE ${table} SET ${lease} WHERE reference = ? AND ${OPEN} AND ${FREE} AND next_attempt_at <= ?
                 RETURNING *`,
                [owner, t + leaseMs, reference, t, t],
              )
            : // Without statistics SQLite reads every open row by the state index and sorts them; the due index
              // reads the earliest due ones only.
              rows(
                `UPDATE ${table} SET ${lease} WHERE reference IN (
                   SELECT reference FROM ${table} INDEXED BY ${dueIndex(table)}
                   WHERE ${OPEN} AND ${FREE} AND next_attempt_at <= ?
                   ORDER BY next_attempt_at LIMIT ?)
                 RETURNING *`,
                [owner, t + leaseMs, t, t, limit],
              );
        const marked = claimed.map((row): OutboxRow => {
          if (!markFresh || row.state !== 'pending' || row.sends !== 0 || row.lookup_first) return row;
          // The token was just taken; without a transaction of its own (Node before 22.16) an operator's cancel
          // may come between: the row then goes back unmarked, and the step's own mark is fenced out.
          if (!markRow(row, t, row.lease_until!)) return row;
          const times = { updated_at: t, first_sent_at: row.first_sent_at ?? t, last_sent_at: t };
          return { ...row, ...times, state: 'sending', sends: 1, marked: true };
        });
        if (own) db.exec('COMMIT');
        return marked;
      } catch (error) {
        if (own && db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    async mark(reference, token, leaseMs) {
      outsideTransaction();
      const t = clock();
      return markRow({ reference, token }, t, t + leaseMs);
    },
    // Answers of one turn share a commit (sqlite-group-commit.ts); the clock is read when the batch runs.
    write: (reference, token, change) =>
      answers(() => {
        const t = clock();
        const written = statement(
          `UPDATE ${table} SET state = ?, sends = ?, answered = ?, lookups = ?, accepted = ?, lookup_first = ?,
           reason = ?, result = ?, attempts = ?, clock_doubt_ms = ?, next_attempt_at = ?, updated_at = ?,
           last_sent_at = COALESCE(?, last_sent_at), doubted = COALESCE(?, doubted), lease_until = NULL,
           owner = NULL
         WHERE reference = ? AND token = ? RETURNING reference`,
        ).all(
          change.state,
          change.sends,
          change.answered,
          change.lookups,
          Number(change.accepted),
          Number(change.lookup_first),
          change.reason,
          change.result === null ? null : JSON.stringify(change.result),
          JSON.stringify(change.attempts),
          Math.round(change.clock_doubt_ms),
          t + Math.round(change.delayMs),
          t,
          change.last_sent_at ?? null,
          change.doubted === undefined ? null : Number(change.doubted),
          reference,
          token,
        );
        return written.length === 1;
      }),
    async reopen(reference, change) {
      const t = clock();
      const reopen = Number(change.reopen);
      const [row] = rows(
        `UPDATE ${table} SET state = ?, reason = ?, lookups = 0, token = token + 1,
           sends = CASE WHEN ? THEN 0 ELSE sends END, answered = CASE WHEN ? THEN 0 ELSE answered END,
           lookup_first = (lookup_first OR ?), accepted = (accepted AND NOT ?),
           attempts = json_insert(attempts, '$[#]', json(?)), next_attempt_at = ?, updated_at = ?,
           owner = NULL, lease_until = NULL
         WHERE reference = ? AND state IN (${change.from.map(() => '?').join(', ')}) RETURNING *`,
        [
          change.state,
          change.reason,
          reopen,
          reopen,
          reopen,
          Number(change.clearAccepted),
          JSON.stringify(change.attempt),
          t,
          t,
          reference,
          ...change.from,
        ],
      );
      return row;
    },
    async get(reference) {
      return rows(`SELECT * FROM ${table} WHERE reference = ?`, [reference])[0];
    },
    async list({ state, limit, after, dueBefore, status, following, sentBetween }) {
      return rows(
        `SELECT * FROM ${table} WHERE (?1 IS NULL OR state = ?1)
           AND (?3 IS NULL OR (created_at, reference) > (?3, ?4))
           AND (?5 IS NULL OR (${OPEN} AND next_attempt_at <= ?5))
           AND (?6 IS NULL OR status = ?6)
           AND (?7 IS NULL OR (state IN ('created', 'recovered') AND ${SENT_AT} >= ?7
             AND (final_at IS NULL OR final_at > ?8)))
           AND (?9 IS NULL OR (${SENT_AT} <= ?10 AND coalesce(last_sent_at, ${SENT_AT}) >= ?9))
         ORDER BY created_at, reference LIMIT ?2`,
        [
          state ?? null,
          limit,
          after?.createdAt ?? null,
          after?.reference ?? null,
          dueBefore ?? null,
          status ?? null,
          following?.sentSince ?? null,
          following?.finalSince ?? null,
          sentBetween?.[0] ?? null,
          sentBetween?.[1] ?? null,
        ],
      );
    },
    async count() {
      const counted = statement(
        `SELECT state, count(*) AS n, min(CASE WHEN ${OPEN} THEN created_at END) AS oldest
         FROM ${table} GROUP BY state`,
      ).all() as Record<string, unknown>[];
      return tally(counted);
    },
    async now() {
      return clock();
    },
    ...sqliteLife(table, clock, (sql) => statement(sql)),
  };
}
