import type { PaymentsClient } from '../index.js';
import { remarkKey as keyOf } from '../payouts/proof/payout-identity.js';
import {
  type ExpectedPayout,
  type ReconcileDeps,
  type ReconcileOptions,
  type ReconciliationReport,
  reconcileListing,
} from '../payouts/reconcile/reconcile.js';
import { matcher } from '../payouts/tracking/tracker-round.js';
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
  client: ReconcileClient,
  options: ReconcileOptions,
): Promise<ReconciliationReport> {
  return reconcileListing(depsOf(client, Date.now), options);
}

/** What a reconciliation reads of the client. */
export type ReconcileClient = {
  transactions: Pick<PaymentsClient['transactions'], 'list'>;
  payouts: Pick<PaymentsClient['payouts'], 'assignsReference'>;
};

/** The client as a reconciliation reads it, the answers' `Date` headers measured against `now`. */
const depsOf = (client: ReconcileClient, now: () => number): ReconcileDeps => ({
  list: (params, request) => client.transactions.list(params, request),
  assigns: (currency) => client.payouts.assignsReference(currency),
  now,
});

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
 * Payouts sent this close to either end of the period (by the store's clock) may be listed on either side of it
 * (the service stamps them by its own clock). A sent record is the period's own when its last POST is inside the
 * period: it is compared, and one the period's listing does not show is looked for across the nearer end, this
 * far beyond it (and as far again as the service's clock was measured from the store's), before it is reported
 * missing. Any other record the read takes (a POST near the period, or an earlier POST in it that moved nothing)
 * is `pending`: a listed one is accounted for.
 */
const EDGE_MS = 10 * 60_000;

const firstSent = (row: OutboxRow) => row.first_sent_at ?? row.created_at;
const lastSent = (row: OutboxRow) => row.last_sent_at ?? firstSent(row);

/**
 * A record sent (answered or found) whose last POST is inside the period: the period answers for it. The last POST
 * is the one that moved money: a POST is sent again only after the listing proved the one before moved nothing,
 * so a payout first tried at 23:55 and created by its retry at 00:05 is the next day's, once.
 */
const ownedBy = (row: OutboxRow, from: number, to: number) =>
  (row.state === 'created' || row.state === 'recovered') && lastSent(row) >= from && lastSent(row) <= to;

/** A record as `reconcilePayouts` sets it against the listing. */
function expectedOf(row: OutboxRow, from: number, to: number): ExpectedPayout {
  const { body, digits } = row.body;
  const state = ownedBy(row, from, to)
    ? 'sent'
    : row.state === 'unknown'
      ? 'unknown'
      : row.state === 'refused' || row.state === 'not_sent' || row.state === 'cancelled'
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
 * The period's own records near an end that its listing does not show, looked for in the listing just beyond
 * each end (`EDGE_MS`): a record found there is compared there; one found nowhere is reported `unlisted`, unless a
 * read fell short (then `reason` says so). Withdrawals beyond the ends belong to the periods there: not reported.
 */
async function acrossEnds(
  deps: ReconcileDeps,
  f: Follower,
  options: OutboxReconcileOptions,
  report: ReconciliationReport,
  records: OutboxRow[],
  [from, to]: [number, number],
): Promise<ReconciliationReport> {
  const edge = EDGE_MS + Math.abs(report.serviceClockOffsetMs ?? 0);
  // A set, not a scan of the rows per record: a day may hold many records and many unlisted ones.
  const unlisted = new Set(report.rows.filter((r) => r.kind === 'unlisted').map((r) => r.reference));
  const near = records.filter(
    (row) => unlisted.has(row.reference) && (lastSent(row) < from + edge || lastSent(row) > to - edge),
  );
  if (near.length === 0) return report;
  const missing = new Set(near.map((row) => row.reference));
  const found: ReconciliationReport['rows'] = [];
  let reason: string | undefined;
  for (const [start, end] of [
    [from - edge, from - 1],
    [to + 1, to + edge],
  ] as const) {
    const beyond = await reconcileListing(deps, {
      from: new Date(start),
      to: new Date(end),
      ...(options.maxLookupPages === undefined ? {} : { maxLookupPages: options.maxLookupPages }),
      timeout: f.timeout,
      payouts: near.map((row) => ({ ...expectedOf(row, from, to), state: 'sent' as const })),
    });
    if (!beyond.complete) {
      reason ??= `the listing beyond the period's ends: ${beyond.reason}`;
      continue;
    }
    const absent = new Set(beyond.rows.filter((r) => r.kind === 'unlisted').map((r) => r.reference ?? ''));
    for (const ref of [...missing]) if (!absent.has(ref)) missing.delete(ref);
    found.push(...beyond.rows.filter((r) => r.kind !== 'unlisted' && r.kind !== 'unrecorded'));
  }
  const nearRefs = new Set(near.map((row) => row.reference));
  const rows = report.rows.filter((r) => {
    const ref = r.reference ?? '';
    return r.kind !== 'unlisted' || !nearRefs.has(ref) || (reason === undefined && missing.has(ref));
  });
  return {
    ...report,
    rows: [...rows, ...found],
    ...(reason === undefined ? {} : { complete: false, reason: report.reason ?? reason }),
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
  // The records' times are the store's: the service's clock is measured against it.
  const offset = (await f.store.now()) - Date.now();
  const deps = depsOf(f.client, () => Date.now() + offset);
  const period = await reconcileListing(deps, {
    ...options,
    timeout: f.timeout,
    payouts: rows.map((row) => expectedOf(row, from!, to!)),
  });
  const report = !period.complete
    ? period
    : period.serviceClockOffsetMs === undefined
      ? unmeasured(period)
      : await acrossEnds(deps, f, options, period, rows, [from!, to!]);
  const accounted = await accountedElsewhere(f, report.rows);
  return { ...report, rows: report.rows.filter((row) => !accounted.has(row)) };
}

/**
 * A period read whose answers carried no `Date` header: how far the service's clock is from the store's is not
 * known, so a record the listing does not show may be listed beyond any edge. No record is called missing; the
 * report says it cannot conclude. Rows that do not rest on the clocks (differences, withdrawals no record accounts
 * for) stand.
 */
function unmeasured(report: ReconciliationReport): ReconciliationReport {
  const unlisted = report.rows.filter((r) => r.kind === 'unlisted').length;
  if (unlisted === 0) return report;
  return {
    ...report,
    complete: false,
    reason: `the service's answers carried no Date header, so its clock cannot be compared with the store's: ${unlisted} record(s) the listing does not show may be listed beyond the period's ends, and none is reported unlisted`,
    rows: report.rows.filter((r) => r.kind !== 'unlisted'),
  };
}

/**
 * Lookups of the store at once while unrecorded rows are checked: a day of many withdrawals made outside the
 * outbox costs one query each, and they must not all wait on the store's pool at the same time.
 */
const LOOKUPS_AT_ONCE = 16;

/** The `unrecorded` rows that a record of another period accounts for (a retry a day later, say). */
async function accountedElsewhere(f: Follower, rows: ReconciliationReport['rows']) {
  const candidates = rows.filter((row) => row.kind === 'unrecorded' && row.transaction);
  const accounted = new Set<ReconciliationReport['rows'][number]>();
  for (let i = 0; i < candidates.length; i += LOOKUPS_AT_ONCE) {
    const batch = candidates.slice(i, i + LOOKUPS_AT_ONCE);
    await Promise.all(
      batch.map(async (row) => {
        const tx = row.transaction!;
        const remarkKey = tx.description === undefined ? undefined : keyOf(tx.description);
        const found = await f.store.find({
          transactionId: tx.id,
          reference: tx.external_reference,
          remarkKey,
        });
        if (found.some((candidate) => matcher([followedOf(candidate)])(tx).length > 0)) accounted.add(row);
      }),
    );
  }
  return accounted;
}
