import { type Transaction, TransactionSchema } from '../index.js';
import { remarkKey } from '../payouts/proof/payout-identity.js';
import { matcher, readRound } from '../payouts/tracking/tracker-round.js';
import { parseRequest } from '../rules/schema.js';
import { applyTo, followedOf, recordAt } from './life.js';
import type { PayoutLifeHooks, PayoutOutboxClient, PayoutOutboxHooks } from './options.js';
import { appendAttempts, attemptOf, toRecord } from './record.js';
import type { OutboxChange, OutboxListQuery, OutboxRow, PayoutOutboxStore, PayoutRecord } from './types.js';

/**
 * How the outbox follows its payouts after they are sent: tracking rounds (one process at a time, under a lease)
 * that read the listing window covering every payout followed once, observations from anywhere else, and the
 * merchant's hooks, delivered at least once per change.
 */

/** What following needs: the outbox's client, store and settings. */
export interface Follower {
  client: PayoutOutboxClient;
  hooks: PayoutOutboxHooks;
  store: PayoutOutboxStore<unknown>;
  owner: string;
  leaseMs: number;
  timeout: number;
  final: Set<string>;
  life: PayoutLifeHooks;
  backoff: (round: number) => number;
  tracking?: {
    everyMs: number;
    followForMs: number;
    afterFinalMs: number;
    marginMs: number;
    maxPages: number;
  };
}

/** What a tracking round did. */
export interface OutboxRound {
  payouts: number;
  requests: number;
  changes: number;
  complete: boolean;
  reason?: string;
}

/** Every row a query selects, a page at a time. */
export async function listAll(
  store: PayoutOutboxStore<unknown>,
  query: Omit<OutboxListQuery, 'limit' | 'after'>,
): Promise<OutboxRow[]> {
  const all: OutboxRow[] = [];
  for (;;) {
    const last = all.at(-1);
    const after = last && { createdAt: last.created_at, reference: last.reference };
    const page = await store.list({ ...query, limit: 1000, after });
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

/**
 * One tracking round, if this process holds the tracking lease (another one may): the sent payouts still
 * followed, the listing window covering them read once, each row matched and written. Undefined: not this
 * process's turn. `drained` (a cron's `work`, about to exit): the round runs whoever's turn it is, so that what
 * it sent is followed before it goes; another process's round at the same time costs reads, not correctness
 * (an observation is applied once, whoever reads it).
 */
export async function trackRound(f: Follower, drained = false): Promise<OutboxRound | undefined> {
  const tracking = f.tracking!;
  // Long enough for a round of many pages; a round that outlasts it only costs a second process's round.
  const lease = Math.max(2 * tracking.everyMs, tracking.everyMs + 4 * f.timeout);
  if (!(await f.store.lease('tracking', f.owner, lease)) && !drained) return undefined;
  const now = await f.store.now();
  const offset = now - Date.now();
  const following = { sentSince: now - tracking.followForMs, finalSince: now - tracking.afterFinalMs };
  const followed = (await listAll(f.store, { following })).map(followedOf);
  const result = await readRound(followed, {
    list: (params, options) => f.client.transactions.list(params, options),
    request: { timeout: f.timeout },
    marginMs: tracking.marginMs,
    // Rows the outbox knows no service time for were sent by the store's clock.
    clock: () => Date.now() + offset,
    maxPages: tracking.maxPages,
  });
  const rows = new Map(followed.map((item) => [item.ref, item.row]));
  let changes = 0;
  for (const { payout, transaction } of result.matches) {
    const applied = await applyTo(f.store, rows.get(payout.ref)!, transaction, f.final);
    rows.set(payout.ref, applied.row);
    changes += applied.changes.length;
  }
  // The turn is this process's until the next round is due: no other (and no cron) runs one before.
  await f.store.lease('tracking', f.owner, tracking.everyMs);
  const { requests, complete, reason } = result;
  await f.hooks.afterRound?.({ payouts: followed.length, requests, changes });
  return { payouts: followed.length, requests, changes, complete, ...(reason ? { reason } : {}) };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 400);

/** Runs the hooks of one change: `onStatus` then `onFinal` for a status, `onUetr` for codes. */
async function runHooks(hooks: PayoutLifeHooks, record: PayoutRecord, change: OutboxChange) {
  if (change.kind !== 'status') return hooks.onUetr?.(record, change);
  await hooks.onStatus?.(record, change.previous, change);
  if (change.final) await hooks.onFinal?.(record, change);
}

/**
 * Delivers a claimed row's changes to the hooks, in order. Each one delivered is written before the next runs,
 * so a process that dies in a hook re-runs that change only, at least once; a hook that throws holds the row's
 * deliveries off for a while, then they go again. Returns how many were delivered, and whether a hook threw.
 */
export async function deliver(f: Follower, row: OutboxRow): Promise<{ delivered: number; failed: boolean }> {
  const pending = row.changes.filter((c) => c.seq > row.delivered).sort((a, b) => a.seq - b.seq);
  let delivered = 0;
  for (const [i, change] of pending.entries()) {
    try {
      await runHooks(f.life, recordAt(row, change), change);
    } catch (error) {
      const failures = row.hook_failures + 1;
      const what = `change ${change.seq} (${change.kind} ${change.status}) will be delivered again`;
      await f.store.deliver(row.reference, row.token, {
        delivered: row.delivered + delivered,
        hookFailures: failures,
        retryInMs: f.backoff(failures),
        attempts: appendAttempts(row.attempts, [attemptOf('hook', error, `${what}: ${message(error)}`)]),
      });
      await f.hooks.afterDeliver?.(row.reference, row.delivered + delivered, true);
      return { delivered, failed: true };
    }
    delivered += 1;
    const more = i < pending.length - 1;
    const held = await f.store.deliver(row.reference, row.token, {
      delivered: change.seq,
      hookFailures: 0,
      ...(more ? { renewMs: f.leaseMs } : {}),
    });
    // Another owner holds the row now (this one outlived its lease in a hook): it delivers the rest.
    if (!held) return { delivered, failed: false };
    await f.hooks.afterDeliver?.(row.reference, change.seq, false);
  }
  if (pending.length === 0)
    await f.store.deliver(row.reference, row.token, { delivered: row.delivered, hookFailures: 0 });
  return { delivered, failed: false };
}

/**
 * Applies a transaction from anywhere (a webhook handler, an export) to the sent payout it is, in any order and
 * any number of times. The record after it and the changes it made; none when no sent payout of the outbox is it.
 */
export async function observe(
  f: Follower,
  given: Transaction,
): Promise<{ record?: PayoutRecord; changes: OutboxChange[] }> {
  const transaction = parseRequest(TransactionSchema, given, ['transaction']) as Transaction;
  if (transaction.transaction_type !== 'withdrawal') return { changes: [] };
  const candidates = await f.store.find({
    transactionId: transaction.id,
    reference: transaction.external_reference,
    remarkKey: transaction.description === undefined ? undefined : remarkKey(transaction.description),
  });
  const result: { record?: PayoutRecord; changes: OutboxChange[] } = { changes: [] };
  for (const candidate of candidates) {
    const sent = candidate.state === 'created' || candidate.state === 'recovered';
    if (!sent || matcher([followedOf(candidate)])(transaction).length === 0) continue;
    const { row, changes } = await applyTo(f.store, candidate, transaction, f.final);
    result.record = toRecord(row, await f.store.now());
    result.changes.push(...changes);
  }
  return result;
}
