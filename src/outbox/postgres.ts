import { COLUMNS, checkTable, DEFAULT_OUTBOX_TABLE, postgresOutboxSchema, toRow } from './sql.js';
import type { InsertResult, OutboxRow, OutboxWrite, PayoutOutboxStore, PayoutState } from './types.js';

/**
 * What the PostgreSQL store needs of a client: `query(text, values)` resolving `{ rows }`. `pg`'s `Pool`,
 * `Client` and `PoolClient` have this shape; wrap others (postgres.js: see docs/payouts-at-scale.md).
 */
export interface PostgresQueryable {
  /** Runs a statement with `$1`-style parameters. */
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** Options of `postgresOutboxStore`. */
export interface PostgresOutboxStoreOptions {
  /** Used for every statement but an `insert` given its own transaction's client. */
  client: PostgresQueryable;
  /** Table name, optionally `schema.table`. Default `payout_outbox`. */
  table?: string;
}

// The database's clock, in epoch ms: every lease and due time is read from one clock, whatever the workers' say.
const NOW = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
const OPEN = `state IN ('pending', 'sending', 'retry')`;
const TIMES = new Set(['created_at', 'updated_at', 'next_attempt_at']);
const FREE = `(lease_until IS NULL OR lease_until < ${NOW})`;

/**
 * The outbox on PostgreSQL. A claim is one `UPDATE ... RETURNING`: the row lock it takes makes a second claimant
 * wait, and then re-read the row, whose lease is no longer free. `FOR UPDATE SKIP LOCKED` lets many workers
 * take different rows at once without queueing behind each other.
 */
export function postgresOutboxStore(
  options: PostgresOutboxStoreOptions,
): PayoutOutboxStore<PostgresQueryable> {
  const { client } = options;
  const table = checkTable(options.table ?? DEFAULT_OUTBOX_TABLE);
  const rows = async (text: string, values: unknown[], on: PostgresQueryable = client) =>
    (await on.query(text, values)).rows.map(toRow);
  const lease = (param: string) => `owner = ${param}, token = token + 1, lease_until = ${NOW} + $2`;

  return {
    async migrate() {
      await client.query(postgresOutboxSchema(table));
    },
    async insert(row: OutboxRow, tx?: PostgresQueryable): Promise<InsertResult> {
      const on = tx ?? client;
      // Times from the database's clock, so a fresh row is due at once by the workers' reckoning.
      const values: unknown[] = [];
      const exprs = COLUMNS.map((c) => (TIMES.has(c) ? NOW : `$${values.push(c === 'token' ? 0 : row[c])}`));
      const inserted = await on.query(
        `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${exprs.join(', ')})
         ON CONFLICT DO NOTHING RETURNING reference`,
        values,
      );
      if (inserted.rows.length > 0) return { inserted: true };
      const [existing] = await rows(`SELECT * FROM ${table} WHERE reference = $1`, [row.reference], on);
      return existing ? { inserted: false, existing } : { inserted: false, remarkTaken: true };
    },
    async claim(owner, leaseMs, reference, limit = 1) {
      if (reference !== undefined) {
        return rows(
          `UPDATE ${table} SET ${lease('$3')} WHERE reference = $1 AND ${OPEN} AND ${FREE}
             AND next_attempt_at <= ${NOW} RETURNING *`,
          [reference, leaseMs, owner],
        );
      }
      return rows(
        `UPDATE ${table} SET ${lease('$3')} WHERE reference IN (
           SELECT reference FROM ${table} WHERE ${OPEN} AND ${FREE} AND next_attempt_at <= ${NOW}
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         AND ${OPEN} AND ${FREE} RETURNING *`,
        [limit, leaseMs, owner],
      );
    },
    async mark(reference, token, leaseMs) {
      const result = await client.query(
        `UPDATE ${table} SET state = 'sending', sends = sends + 1, lease_until = ${NOW} + $2, updated_at = ${NOW}
         WHERE reference = $1 AND token = $3 RETURNING reference`,
        [reference, leaseMs, token],
      );
      return result.rows.length === 1;
    },
    async write(reference, token, change: OutboxWrite) {
      const result = await client.query(
        `UPDATE ${table} SET state = $3, lookups = $4, accepted = $5, reason = $6, result = $7, attempts = $8,
           next_attempt_at = ${NOW} + $9, updated_at = ${NOW}, lease_until = NULL, owner = NULL
         WHERE reference = $1 AND token = $2 RETURNING reference`,
        [
          reference,
          token,
          change.state,
          change.lookups,
          change.accepted,
          change.reason,
          change.result,
          change.attempts,
          Math.round(change.delayMs),
        ],
      );
      return result.rows.length === 1;
    },
    async get(reference) {
      return (await rows(`SELECT * FROM ${table} WHERE reference = $1`, [reference]))[0];
    },
    async list({ state, limit, after }: { state?: PayoutState; limit: number; after?: string }) {
      return rows(
        `SELECT * FROM ${table} WHERE ($1::text IS NULL OR state = $1)
           AND ($3::text IS NULL OR (created_at, reference) >
             (SELECT created_at, reference FROM ${table} WHERE reference = $3))
         ORDER BY created_at, reference LIMIT $2`,
        [state ?? null, limit, after ?? null],
      );
    },
  };
}
