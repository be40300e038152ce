import type { LifeMethods } from './postgres-life.js';
import { rowFrom } from './record.js';
import { LISTED_ID, named, undeliveredIndex } from './sql.js';
import type { SqliteDatabase, SqliteValue } from './sqlite.js';

const SENT = `state IN ('created', 'recovered')`;
const FREE = `(lease_until IS NULL OR lease_until < ?)`;

/** A sent payout's life on SQLite: the same contract as `postgresLife`, each write one statement. */
export function sqliteLife(
  table: string,
  clock: () => number,
  statement: (sql: string) => ReturnType<SqliteDatabase['prepare']>,
): LifeMethods<SqliteDatabase> {
  const rows = (sql: string, params: SqliteValue[]) =>
    statement(sql)
      .all(...params)
      .map((r) => rowFrom(r as Record<string, unknown>));
  const leases = named(table, 'leases');
  return {
    async observe(reference, seen, life) {
      const written = rows(
        `UPDATE ${table} SET status = ?, status_at = ?, observed_at = ?, uetr = ?, tracking_codes = ?, final_at = ?,
           transaction_id = ?, changes = ?, observed = ?, updated_at = ?
         WHERE reference = ? AND observed = ? AND observed_at IS ? RETURNING *`,
        [
          life.status,
          life.status_at,
          life.observed_at,
          life.uetr,
          life.tracking_codes === null ? null : JSON.stringify(life.tracking_codes),
          life.final_at,
          life.transaction_id,
          JSON.stringify(life.changes),
          life.observed,
          clock(),
          reference,
          seen.observed,
          seen.observed_at,
        ],
      );
      return written.length === 1;
    },
    async find({ transactionId, reference, remarkKey }) {
      return rows(
        `SELECT * FROM ${table} WHERE ${LISTED_ID[1]} = ? OR reference = ?
           OR reference = (SELECT reference FROM ${named(table, 'remarks')} WHERE remark_key = ?)`,
        [transactionId, reference ?? null, remarkKey ?? null],
      );
    },
    async claimDeliveries(owner, leaseMs, limit) {
      const t = clock();
      return rows(
        // Without statistics SQLite reads every sent row (the state index), on every turn of the worker loop.
        `UPDATE ${table} SET owner = ?, token = token + 1, lease_until = ? WHERE reference IN (
           SELECT reference FROM ${table} INDEXED BY ${undeliveredIndex(table)}
           WHERE observed > delivered AND ${SENT} AND ${FREE}
           ORDER BY updated_at LIMIT ?)
         RETURNING *`,
        [owner, t + leaseMs, t, limit],
      );
    },
    async deliver(reference, token, delivery) {
      const held = delivery.renewMs ?? delivery.retryInMs;
      const written = rows(
        `UPDATE ${table} SET delivered = max(delivered, ?), hook_failures = ?, attempts = coalesce(?, attempts),
           lease_until = ?, owner = CASE WHEN ? THEN owner ELSE NULL END
         WHERE reference = ? AND token = ? RETURNING *`,
        [
          delivery.delivered,
          delivery.hookFailures,
          delivery.attempts ? JSON.stringify(delivery.attempts) : null,
          held === undefined ? null : clock() + Math.round(held),
          Number(delivery.renewMs !== undefined),
          reference,
          token,
        ],
      );
      return written.length === 1;
    },
    async lease(name, owner, ms) {
      const t = clock();
      const taken = statement(
        `INSERT INTO ${leases} (name, owner, lease_until) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
         WHERE ${leases}.lease_until < ? OR ${leases}.owner = excluded.owner RETURNING owner`,
      ).all(name, owner, t + Math.round(ms), t);
      return taken.length === 1;
    },
  };
}
