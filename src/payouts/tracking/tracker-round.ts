import type { RequestOptions } from '../../internal/request-options.js';
import { isLegacyTransaction, type Transaction, type TransactionListItem } from '../../rules/transactions.js';
import { type ListTransactions, walkListing } from '../proof/listing-proof.js';
import { type PayoutMatch, remarkKey, remarkKeyOf } from '../proof/payout-identity.js';
import { ServiceClock } from '../service-clock.js';
import type { TrackingRound } from './tracker-options.js';

/**
 * One round of tracking: the listing window that covers every payout followed, read once (the time-keyed walk
 * of `listing-proof.ts`, every page checked), each row matched to the payouts it is. What a round costs grows
 * with the rows in the window, not with the number of payouts followed: each row is matched through maps, by
 * the listed id, the reference, or the remark's key.
 */

/** A payout as a round needs it: how to recognise its row, and since when it can be listed. */
export interface Followed {
  /** The reference it was sent with; a withdrawal listed under it is this payout. */
  ref: string;
  /** The listed transaction's id, once known (the POST's answer `id`, or a row seen before): only that row is it. */
  id?: string | undefined;
  /** How to recognise it otherwise (NGN: `remarkMatch`). Rows that might be it but cannot be told apart are not. */
  match?: PayoutMatch | undefined;
  /** Earliest time its row can have been created, epoch ms. */
  since: number;
  /** `since` was read from a clock of ours, not the service's (a `created_at`): the window gets the margin. */
  local: boolean;
}

/** How a round reads the listing. */
export interface RoundSettings {
  list: ListTransactions;
  request: RequestOptions;
  /** Margin for clocks of ours against the service's; each answer's `Date` header is measured against `clock`. */
  marginMs: number;
  clock: () => number;
  /** Queries per listing at most (100 rows each). */
  maxPages: number;
}

/** What a round read and found. */
export interface RoundResult<F extends Followed> {
  /** Each row matched to a payout followed, in the order read. */
  matches: Array<{ payout: F; transaction: Transaction }>;
  /** Listing requests made. */
  requests: number;
  /** Rows read (counted once each per listing). */
  rows: number;
  /** Every listing read to the end it declared; otherwise `reason` says why not (matches still count). */
  complete: boolean;
  reason?: string;
  /**
   * Payouts known only by a clock of ours (`local`) and not met, whose rows the window may have missed: the
   * service's clock could not be compared with it. Only these are in doubt; every other payout was read as usual.
   */
  doubts: Array<{ payout: F; reason: string }>;
}

/** The payouts a row is: by id, by reference, by remark key (confirmed by the match), or by a match of its own. */
export function matcher<F extends Followed>(payouts: Iterable<F>): (row: Transaction) => F[] {
  const byId = new Map<string, F[]>();
  const byRef = new Map<string, F[]>();
  const byRemark = new Map<string, F[]>();
  const scan: F[] = [];
  const add = (map: Map<string, F[]>, key: string, payout: F) =>
    map.set(key, [...(map.get(key) ?? []), payout]);
  for (const payout of payouts) {
    if (payout.id !== undefined) add(byId, payout.id, payout);
    add(byRef, payout.ref, payout);
    const key = payout.match && remarkKeyOf(payout.match);
    if (key !== undefined) add(byRemark, key, payout);
    else if (payout.match) scan.push(payout);
  }
  return (row) => {
    if (row.transaction_type !== 'withdrawal') return [];
    const found = new Set<F>(byId.get(row.id));
    const unbound = (payout: F) => payout.id === undefined;
    for (const payout of byRef.get(row.external_reference ?? '') ?? [])
      if (unbound(payout)) found.add(payout);
    const remarked = row.description === undefined ? [] : (byRemark.get(remarkKey(row.description)) ?? []);
    for (const payout of [...remarked, ...scan]) {
      if (unbound(payout) && payout.match!(row, payout.ref) === true) found.add(payout);
    }
    return [...found];
  };
}

/**
 * The listings a round reads: the default one, then `failed`. A row that fails while they are read is met in the
 * second; a round proves no absence, so the proof's first read of `failed` (`LISTINGS`) would only cost a request
 * a round: a row missed in one round is met in the next.
 */
const ROUND_LISTINGS = [undefined, 'failed'] as const;

/** The furthest a window is widened for a clock of ours that runs ahead of the service's: a day. */
const MAX_WIDENING_MS = 86_400_000;

/**
 * Reads the window from the earliest `since` to the service's now, the default listing then `failed`, and
 * matches each row. A page that cannot count ends its listing (the round is incomplete, and says why); rows of
 * pages that did count are matched all the same. Request failures propagate.
 *
 * The clock a `local` payout's `since` was read from is measured against the service's by each answer's `Date`
 * header, and judged for that payout alone: when ours runs ahead by more than the margin, the window is read
 * further back by as much in the same round; when no answer says the service's time, a payout known only by our
 * clock and not met is a doubt of its own (`doubts`). Neither hides the other payouts' rows.
 */
export async function readRound<F extends Followed>(
  payouts: F[],
  settings: RoundSettings,
): Promise<RoundResult<F>> {
  const result: RoundResult<F> = { matches: [], requests: 0, rows: 0, complete: true, doubts: [] };
  if (payouts.length === 0) return result;
  // A service time needs no margin but its own precision (a second); ours may disagree with the service's. A
  // loop, not Math.min(...): spread over some 100,000 payouts it overflows the stack (RangeError).
  const startOf = (p: F) => p.since - (p.local ? 2 * settings.marginMs : 1000);
  let from = Number.POSITIVE_INFINITY;
  for (const p of payouts) from = Math.min(from, startOf(p));
  const service = new ServiceClock(settings.clock);
  const read = readWindows(payouts, settings, service, result);
  await read(from, undefined);
  const met = new Set(result.matches.map((m) => m.payout));
  const unmet = payouts.filter((p) => p.local && !met.has(p));
  if (unmet.length === 0) return result;
  if (!service.measured) {
    result.doubts = unmet.map((payout) => ({
      payout,
      reason: `the service's answers carried no Date header, so the clock its time (${iso(payout.since)}) was read from cannot be compared with the service's: the window may miss it`,
    }));
    return result;
  }
  const ahead = -service.lowMs!;
  if (ahead <= settings.marginMs) return result;
  if (ahead > MAX_WIDENING_MS) {
    const reason = `the service's Date header is ${Math.round(ahead / 3_600_000)} h behind the clock its time was read from, more than a day: the window is not widened so far, and may miss it`;
    result.doubts = unmet.map((payout) => ({ payout, reason }));
    return result;
  }
  // Ours runs ahead of the service's: the rows of those payouts may be stamped before the window read.
  let wider = Number.POSITIVE_INFINITY;
  for (const p of unmet) wider = Math.min(wider, startOf(p) - ahead);
  if (wider < from) await read(wider, from);
  return result;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Reads the listings over `[start, end]` (end: the service's now), each row matched; its ends noted in `result`. */
function readWindows<F extends Followed>(
  payouts: F[],
  settings: RoundSettings,
  service: ServiceClock,
  result: RoundResult<F>,
) {
  const limits = {
    maxPages: settings.maxPages,
    request: settings.request,
    onPage: () => void result.requests++,
  };
  const list = service.measure(settings.list);
  const match = matcher(payouts);
  // Rows read again at the instant where a wider read meets the first one are handed over once.
  const seen = new Map(ROUND_LISTINGS.map((status) => [status, new Set<string>()]));
  let legacy = false;
  const visit = (row: TransactionListItem) => {
    result.rows += 1;
    if (isLegacyTransaction(row)) legacy = true;
    else for (const payout of match(row)) result.matches.push({ payout, transaction: row });
    return false;
  };
  return async (start: number, end: number | undefined) => {
    for (const status of ROUND_LISTINGS) {
      const walk = { list, limits, status, seen: seen.get(status)!, answer: {}, byPageWhenShort: true };
      const ended = await walkListing(walk, iso(start), end === undefined ? undefined : iso(end), visit);
      const reason = ended.issue ?? ended.reason;
      if (reason && result.complete) {
        Object.assign(result, { complete: false, reason: `${status ?? 'default'} listing: ${reason}` });
      }
    }
    if (legacy && result.complete) {
      Object.assign(result, {
        complete: false,
        reason: 'the listing holds rows in the older form, without references',
      });
    }
  };
}

/** A round in one line, for the client's logger at `info`. */
export function roundLine(round: TrackingRound): string {
  const failed =
    round.error === undefined ? '' : `; failed (${(round.error as Error).message ?? round.error})`;
  const short = round.reason ? `; incomplete (${round.reason})` : '';
  const next = round.nextInMs === undefined ? '' : `; next in ${round.nextInMs} ms`;
  return `payouts tracking round: ${round.payouts} payout(s) followed, ${round.requests} listing request(s), ${round.changes} change(s)${failed}${short}${next}`;
}
