import { remarkMatch, type Transaction } from '../index.js';
import { applyObservation } from '../payouts/tracking/payout-life.js';
import type { PayoutLife } from '../payouts/tracking/payout-status.js';
import type { Followed } from '../payouts/tracking/tracker-round.js';
import { toRecord } from './record.js';
import type { OutboxChange, OutboxLife, OutboxRow, PayoutOutboxStore, PayoutRecord } from './types.js';

/**
 * A sent payout's life in the outbox: what a row knows of it, how a round recognises it, and how an observation
 * is written, by the one rule of `payouts/tracking/payout-life.ts`.
 */

const iso = (ms: number) => new Date(ms).toISOString();
const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** What a row knows of its payout, as the shared rule reads it. */
export function lifeOf(row: OutboxRow): PayoutLife {
  const life: PayoutLife = {};
  const id = row.transaction_id ?? row.result?.payout?.id ?? row.result?.transaction?.id;
  if (id !== undefined) life.id = id;
  if (row.status !== null) life.status = row.status;
  if (row.status_at !== null) life.statusAt = iso(row.status_at);
  if (row.observed_at !== null) life.observedAt = iso(row.observed_at);
  if (row.uetr !== null) life.uetr = row.uetr;
  if (row.tracking_codes !== null) life.trackingCodes = row.tracking_codes;
  return life;
}

/** How a round finds a sent row's payout: its listed id, else its reference or remark; since its creation. */
export function followedOf(row: OutboxRow): Followed & { row: OutboxRow } {
  const created = row.result?.payout?.created_at ?? row.result?.transaction?.created_at;
  const service = created !== undefined && !Number.isNaN(Date.parse(created));
  const { body, digits } = row.body;
  const match =
    row.remark_key !== null && body.remark !== undefined ? remarkMatch(body as never, digits) : undefined;
  return {
    ref: row.reference,
    id: lifeOf(row).id,
    match,
    // The service's own time when the row holds one; else when the outbox first sent it (the store's clock).
    since: service ? Date.parse(created) : (row.first_sent_at ?? row.created_at),
    local: !service,
    row,
  };
}

/** Changes kept in the row: every one not delivered, and the latest delivered ones, for the record's history. */
const KEEP_DELIVERED = 20;
const kept = (changes: OutboxChange[], delivered: number) => {
  const done = changes.filter((c) => c.seq <= delivered).slice(-KEEP_DELIVERED);
  return [...done, ...changes.filter((c) => c.seq > delivered)];
};

/** The columns an observation writes, from the life it leaves and the changes it made. */
function written(row: OutboxRow, life: PayoutLife, changes: OutboxChange[], finals: Set<string>): OutboxLife {
  const statusAt = life.statusAt === undefined ? null : Date.parse(life.statusAt);
  const isFinal = life.status !== undefined && finals.has(life.status);
  const wasFinal = row.status !== null && finals.has(row.status);
  return {
    status: life.status ?? null,
    status_at: statusAt,
    observed_at: life.observedAt === undefined ? null : Date.parse(life.observedAt),
    uetr: life.uetr ?? null,
    tracking_codes: life.trackingCodes ?? null,
    // When it first became final: kept while it moves between final statuses (completed, then refunded), and
    // taken back with statusAt when an earlier row of the same final status arrives late.
    final_at: isFinal ? (wasFinal ? earliest(row.final_at, statusAt) : statusAt) : null,
    transaction_id: life.id ?? null,
    changes: kept([...row.changes, ...changes], row.delivered),
    observed: row.observed + changes.length,
  };
}

/**
 * Applies a transaction to a sent row, in any order and any number of times (the shared rule), and writes it
 * over the row as it was read: when another observation came first, the row is read again and the transaction
 * applied to that. Returns the row after it, and the changes, numbered, for the hooks.
 */
export async function applyTo(
  store: PayoutOutboxStore<unknown>,
  start: OutboxRow,
  transaction: Transaction,
  finals: Set<string>,
): Promise<{ row: OutboxRow; changes: OutboxChange[] }> {
  let row = start;
  for (let tries = 0; tries < 10; tries++) {
    const before = lifeOf(row);
    const { life, changes } = applyObservation(before, transaction);
    // Nothing new, not even a later time to judge the next observation by or an earlier statusAt: nothing to write.
    const same = life.observedAt === before.observedAt && life.statusAt === before.statusAt;
    if (changes.length === 0 && same && row.transaction_id !== null) {
      return { row, changes: [] };
    }
    const numbered = changes.map((change, i) => ({
      ...change,
      seq: row.observed + 1 + i,
      final: finals.has(change.status),
      afterFinal: change.kind === 'status' && change.previous !== undefined && finals.has(change.previous),
    }));
    const life2 = written(row, life, numbered, finals);
    if (await store.observe(row.reference, row, life2))
      return { row: { ...row, ...life2 }, changes: numbered };
    const fresh = await store.get(row.reference);
    if (!fresh) return { row, changes: [] };
    row = fresh;
  }
  throw new Error(`payout outbox: observations of ${row.reference} kept coming in under this one`);
}

/** The record as a change left it, for its hooks: its status, and its UETR when the change brought one. */
export function recordAt(row: OutboxRow, change: OutboxChange): PayoutRecord {
  const record = toRecord(row);
  record.status = change.status;
  record.statusAt = new Date(change.at);
  if (change.uetr !== undefined) record.uetr = change.uetr;
  if (change.trackingCodes !== undefined) record.trackingCodes = change.trackingCodes;
  return record;
}
