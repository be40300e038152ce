import type { PostgresQueryable } from './postgres.js';
import { rowFrom } from './record.js';
import { LISTED_ID, named } from './sql.js';
import { NOW } from './sql-columns.js';
import type { PayoutOutboxStore } from './types.js';

export { NOW };
export const MS = `* interval '1 millisecond'`;
export const FREE = `(lease_until IS NULL OR lease_until < ${NOW})`;
const SENT = `state IN ('created', 'recovered')`;

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The store's part in a sent payout's life: observations written, hooks delivered, one tracking round at a time. */
export type LifeMethods<Tx> = Pick<
  PayoutOutboxStore<Tx>,
  'observe' | 'find' | 'claimDeliveries' | 'deliver' | 'lease'
>;

/**
 * A sent payout's life on PostgreSQL. An observation is written only over the row it was applied to (`observed`
 * and `observed_at` unchanged), so two observations at once never lose one. Deliveries take the row's lease
 * with a fencing token, as a send does; the sent states never take a send's lease.
 */
export function postgresLife(client: PostgresQueryable, table: string): LifeMethods<PostgresQueryable> {
  const rows = async (text: string, values: unknown[]) =>
    (await client.query(text, values)).rows.map(rowFrom);
  const leases = named(table, 'leases');
  return {
    async observe(reference, seen, life) {
      const { rows: written } = await client.query(
        `UPDATE ${table} SET status = $4, status_at = $5, observed_at = $6, uetr = $7, tracking_codes = $8,
           final_at = $9, transaction_id = $10, changes = $11, observed = $12, updated_at = ${NOW}
         WHERE reference = $1 AND observed = $2 AND observed_at IS NOT DISTINCT FROM $3::timestamptz
         RETURNING reference`,
        [
          reference,
          seen.observed,
          date(seen.observed_at),
          life.status,
          date(life.status_at),
          date(life.observed_at),
          life.uetr,
          life.tracking_codes === null ? null : JSON.stringify(life.tracking_codes),
          date(life.final_at),
          life.transaction_id,
          JSON.stringify(life.changes),
          life.observed,
        ],
      );
      return written.length === 1;
    },
    async find({ transactionId, reference, remarkKey }) {
      return rows(
        `SELECT * FROM ${table} WHERE ${LISTED_ID[0]} = $1 OR reference = $2
           OR reference = (SELECT reference FROM ${named(table, 'remarks')} WHERE remark_key = $3)`,
        [transactionId, reference ?? null, remarkKey ?? null],
      );
    },
    async claimDeliveries(owner, leaseMs, limit) {
      return rows(
        `UPDATE ${table} SET owner = $3, token = token + 1, lease_until = ${NOW} + $2 ${MS}
         WHERE reference IN (
           SELECT reference FROM ${table} WHERE observed > delivered AND ${SENT} AND ${FREE}
           ORDER BY updated_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         AND observed > delivered AND ${FREE} RETURNING *`,
        [limit, leaseMs, owner],
      );
    },
    async deliver(reference, token, delivery) {
      const held = delivery.renewMs ?? delivery.retryInMs ?? null;
      const { rows: written } = await client.query(
        `UPDATE ${table} SET delivered = GREATEST(delivered, $3), hook_failures = $4,
           attempts = COALESCE($5::jsonb, attempts),
           lease_until = CASE WHEN $6::integer IS NULL THEN NULL ELSE ${NOW} + $6 ${MS} END,
           owner = CASE WHEN $7::boolean THEN owner ELSE NULL END
         WHERE reference = $1 AND token = $2 RETURNING reference`,
        [
          reference,
          token,
          delivery.delivered,
          delivery.hookFailures,
          delivery.attempts ? JSON.stringify(delivery.attempts) : null,
          held === null ? null : Math.round(held),
          delivery.renewMs !== undefined,
        ],
      );
      return written.length === 1;
    },
    async lease(name, owner, ms) {
      const { rows: taken } = await client.query(
        `INSERT INTO ${leases} AS held (name, owner, lease_until) VALUES ($1, $2, ${NOW} + $3 ${MS})
         ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
         WHERE held.lease_until < ${NOW} OR held.owner = EXCLUDED.owner RETURNING owner`,
        [name, owner, Math.round(ms)],
      );
      return taken.length === 1;
    },
  };
}
