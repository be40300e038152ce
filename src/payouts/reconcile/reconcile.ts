import * as z from 'zod/mini';
import { invalid, RequestValidationError } from '../../core/error.js';
import { REQUEST_OPTION_SHAPE } from '../../internal/request-options.js';
import { isDate, optionBag } from '../../rules/option-bag.js';
import { isLegacyTransaction, type Transaction, type TransactionListItem } from '../../rules/transactions.js';
import { atLeastOne } from '../option-checks.js';
import { LISTINGS, type ListTransactions, walkListing } from '../proof/listing-proof.js';
import { type RemarkIdentity, remarkIssue, remarkKey, remarkMatch } from '../proof/payout-identity.js';
import { ServiceClock } from '../service-clock.js';
import { matcher } from '../tracking/tracker-round.js';
import {
  differences,
  duplicate,
  type ExpectedPayout,
  minorOf,
  movedMoney,
  preferred,
  type ReconcileOptions,
  type ReconciliationReport,
  unrecorded,
} from './reconcile-rows.js';

export type {
  ExpectedPayout,
  ReconcileOptions,
  ReconciliationReport,
  ReconciliationRow,
} from './reconcile-rows.js';
export { reconciliationCsv } from './reconcile-rows.js';

/** What a reconciliation needs of the client. */
export interface ReconcileDeps {
  list: ListTransactions;
  assigns: (currency: string) => boolean;
  /** The clock the records were written by (the outbox's store's), epoch ms: `Date` headers are measured by it. */
  now?: () => number;
}

const ExpectedSchema = z.looseObject({
  reference: z.string().check(z.minLength(1)),
  amount: z.optional(z.union([z.string(), z.number()])),
  amountMinor: z.optional(z.int()),
  currency: z.string().check(z.minLength(1)),
  transactionId: z.optional(z.string()),
  remark: z.optional(z.string()),
  fee: z.optional(z.number()),
  status: z.optional(z.string()),
  state: z.optional(z.enum(['sent', 'unknown', 'not_sent', 'pending'])),
  // Checked here, as toMinorUnits would: amounts are written with them after the period is read.
  digits: z.optional(z.int().check(z.gte(0), z.lte(18))),
});
/** The options of a reconciliation. */
const reconcileOptions = optionBag<ReconcileOptions>({
  from: z.custom<Date>(isDate, 'must be a valid Date'),
  to: z.custom<Date>(isDate, 'must be a valid Date'),
  payouts: z.array(ExpectedSchema),
  maxLookupPages: atLeastOne,
  signal: REQUEST_OPTION_SHAPE.signal,
  timeout: REQUEST_OPTION_SHAPE.timeout,
});

/**
 * Reads every withdrawal the listings show for the period (failed ones too, by the walk the proofs use) and
 * sets them against the payouts your records hold, each recognised by its id, its reference, or (NGN) its
 * remark. Request failures propagate; a read cut short says so (`complete: false`).
 */
export async function reconcileListing(
  deps: ReconcileDeps,
  given: ReconcileOptions,
): Promise<ReconciliationReport> {
  // None given are read as `{}`, which the schema refuses naming `from`.
  const options = reconcileOptions.read(given ?? ({} as ReconcileOptions), 'reconcile')!;
  const { from, to, payouts } = options;
  if (from > to) throw invalid(['to'], 'must not be before from');
  // Every record is checked and its amount converted before any request: a bad one found after the period was
  // read would waste the read, and would be named without the record it belongs to.
  const followed = payouts.map((p, index) => at(index, () => followedOf(p, index, deps)));
  refuseSharedRemarks(payouts);
  const report: ReconciliationReport = {
    from: from.toISOString(),
    to: to.toISOString(),
    complete: true,
    listed: 0,
    payouts: payouts.length,
    rows: [],
  };
  const rows = await readPeriod(deps, options, report);
  const recognise = matcher(followed);
  const listed = new Map<number, Transaction[]>();
  for (const row of rows.values()) {
    const mine = recognise(row);
    if (mine.length === 0) report.rows.push(unrecorded(row));
    for (const { index } of mine) listed.set(index, [...(listed.get(index) ?? []), row]);
  }
  payouts.forEach((p, index) => {
    // The record's row by what it is, not by which listing was read first (the failed one is).
    const [row, ...others] = (listed.get(index) ?? []).sort(preferred);
    if (row && movedMoney(row)) {
      for (const other of others) if (movedMoney(other)) report.rows.push(duplicate(p, row, other));
    }
    if (row) report.rows.push(...differences(p, row, followed[index]!.minor));
    else if ((p.state ?? 'sent') === 'sent' && report.complete) {
      report.rows.push({
        kind: 'unlisted',
        reference: p.reference,
        detail: 'recorded as sent, not in the listing for the period',
      });
    }
  });
  return report;
}

/** How a record is recognised in the listing, and its amount in minor units (undefined: the digits are unknown). */
function followedOf(p: ExpectedPayout, index: number, deps: ReconcileDeps) {
  if (deps.assigns(p.currency) && p.transactionId === undefined && p.remark === undefined) {
    const why = `is required for a ${p.currency} payout without transactionId: the service lists it under a reference it assigns`;
    throw invalid(['remark'], why);
  }
  if ((p.amount === undefined) === (p.amountMinor === undefined)) {
    throw invalid(['amount'], 'give amount (MAJOR units) or amountMinor, one of them');
  }
  const minor = minorOf(p);
  const problem = p.remark === undefined ? undefined : remarkIssue(p.remark);
  if (problem) throw invalid(['remark'], problem);
  const identity = { ...p, ...(minor === undefined ? {} : { amount: undefined, amountMinor: minor }) };
  const match = p.remark === undefined ? undefined : remarkMatch(identity as RemarkIdentity, p.digits);
  return { ref: p.reference, id: p.transactionId, match, since: 0, local: false, index, minor };
}

/**
 * Refuses two records with one remark (by `remarkKey`) in one currency: a row listed with it would be both
 * payouts, and the report could not say which one moved. The outbox keeps remarks unique so.
 */
function refuseSharedRemarks(payouts: ExpectedPayout[]): void {
  const seen = new Map<string, number>();
  payouts.forEach((p, index) => {
    if (p.remark === undefined) return;
    const key = `${p.currency.trim().toUpperCase()} ${remarkKey(p.remark)}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const why = `is the remark of payouts.${first} in the same currency: a row listed with it would be both payouts (a remark must identify one)`;
      throw invalid(['payouts', String(index), 'remark'], why);
    }
    seen.set(key, index);
  });
}

/** Runs a check of `payouts[index]`: the field it names is named as `payouts.N.field`. */
function at<T>(index: number, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    const prefix = ['payouts', String(index)];
    throw new RequestValidationError(error.issues.map((i) => ({ ...i, path: [...prefix, ...i.path] })));
  }
}

/** The period's withdrawals by id, each in its newest form (a row may move between listings while they are read). */
async function readPeriod(deps: ReconcileDeps, options: ReconcileOptions, report: ReconciliationReport) {
  const rows = new Map<string, Transaction>();
  const request = {
    signal: options.signal,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  };
  const limits = { maxPages: options.maxLookupPages ?? 10_000, request };
  const clock = new ServiceClock(deps.now ?? Date.now);
  const list = clock.measure(deps.list);
  const visit = (row: TransactionListItem) => {
    if (isLegacyTransaction(row))
      report.reason ??= 'the listing holds rows in the older form, without references';
    else if (row.transaction_type === 'withdrawal') {
      const held = rows.get(row.id);
      if (!held || Date.parse(row.updated_at) > Date.parse(held.updated_at)) rows.set(row.id, row);
    }
    return false;
  };
  for (const status of LISTINGS) {
    const walk = { list, limits, status, seen: new Set<string>(), answer: {}, byPageWhenShort: true };
    const ended = await walkListing(walk, report.from, report.to, visit);
    const why = ended.issue ?? ended.reason;
    if (why) report.reason ??= `${status ?? 'default'} listing: ${why}`;
  }
  report.complete = report.reason === undefined;
  report.listed = rows.size;
  if (clock.offsetMs !== undefined) report.serviceClockOffsetMs = clock.offsetMs;
  return rows;
}
