import type { PaymentsClient } from '../index.js';
import { remarkKey as keyOf } from '../lib/payout-identity.js';
import {
  type ExpectedPayout,
  type ReconcileOptions,
  type ReconciliationReport,
  reconcileListing,
} from '../lib/reconcile.js';
import { matcher } from '../lib/tracker-round.js';
import { type Follower, listAll } from './follow.js';
import { followedOf, lifeOf } from './life.js';
import type { OutboxRow } from './types.js';

/**
 * A reconciliation of a period without an outbox (finance's morning question): every withdrawal the listings
 * show from `from` to `to`, set against the payouts your records hold (`payouts`), as typed rows of differences:
 * withdrawals no record accounts for, recorded payouts not listed, payouts that moved twice, status, amount and
 * fee differences, and unknown outcomes the listing settles. `reconciliationCsv(report)` writes them as CSV.
 * See docs/payout-lifecycle.md.
 */
export function reconcilePayouts(
  client: {
    transactions: Pick<PaymentsClient['transactions'], 'list'>;
    payouts: Pick<PaymentsClient['payouts'], 'assignsReference'>;
  },
  options: ReconcileOptions,
): Promise<ReconciliationReport> {
  return reconcileListing(
    {
      list: (params, request) => client.transactions.list(params, request),
      assigns: (currency) => client.payouts.assignsReference(currency),
    },
    options,
  );
}

/** Options of the outbox's `reconcile`. */
export interface OutboxReconcileOptions {
  /** The period's start (inclusive). */
  from: Date;
  /** The period's end (inclusive). */
  to: Date;
  /** Queries per listing at most (100 rows each). Default 10,000. */
  maxLookupPages?: number;
}

/**
 * Payouts sent this close to either end of the period (by the store's clock: the first POST after `from`, or the
 * last before `to`) may be listed on either side of it (the service stamps them by its own clock): they are
 * `pending`, so a listed one is accounted for and a missing one is not reported.
 */
const EDGE_MS = 10 * 60_000;

/** A record as `reconcilePayouts` sets it against the listing. */
function expectedOf(row: OutboxRow, from: number, to: number): ExpectedPayout {
  const { body, digits } = row.body;
  const first = row.first_sent_at ?? row.created_at;
  // Every POST of it well inside the period: one near an end may be listed on the other side of it.
  const within = first >= from + EDGE_MS && (row.last_sent_at ?? first) <= to - EDGE_MS;
  const state =
    row.state === 'created' || row.state === 'recovered'
      ? within
        ? 'sent'
        : 'pending'
      : row.state === 'unknown'
        ? 'unknown'
        : row.state === 'refused' || row.state === 'not_sent'
          ? 'not_sent'
          : 'pending';
  const id = lifeOf(row).id;
  const fee = row.result?.payout?.fee_amount ?? row.result?.transaction?.fee_amount;
  return {
    reference: row.reference,
    ...(body.amountMinor === undefined ? { amount: body.amount! } : { amountMinor: body.amountMinor }),
    currency: row.currency,
    state,
    ...(id === undefined ? {} : { transactionId: id }),
    ...(row.remark_key !== null && body.remark !== undefined ? { remark: body.remark } : {}),
    ...(fee === undefined ? {} : { fee }),
    ...(row.status === null ? {} : { status: row.status }),
    ...(digits === undefined ? {} : { digits }),
  };
}

/**
 * The outbox's reconciliation of a period: its records sent in it (and those near its ends) against the
 * listing. A withdrawal that a record sent outside the period accounts for (a retry a day later) is not
 * reported as unrecorded.
 */
export async function reconcileOutbox(
  f: Follower,
  options: OutboxReconcileOptions,
): Promise<ReconciliationReport> {
  const [from, to] = [options.from?.getTime?.(), options.to?.getTime?.()];
  const rows =
    Number.isFinite(from) && Number.isFinite(to)
      ? await listAll(f.store, { sentBetween: [from! - EDGE_MS, to! + EDGE_MS] })
      : [];
  const report = await reconcilePayouts(f.client, {
    ...options,
    timeout: f.timeout,
    payouts: rows.map((row) => expectedOf(row, from!, to!)),
  });
  const accounted = await Promise.all(
    report.rows.map(async (row) => {
      if (row.kind !== 'unrecorded' || !row.transaction) return false;
      const tx = row.transaction;
      const remarkKey = tx.description === undefined ? undefined : keyOf(tx.description);
      const found = await f.store.find({ transactionId: tx.id, reference: tx.external_reference, remarkKey });
      return found.some((candidate) => matcher([followedOf(candidate)])(tx).length > 0);
    }),
  );
  return { ...report, rows: report.rows.filter((_, i) => !accounted[i]) };
}
