import { currencyDigits, toMajorUnits, toMinorUnits } from '../../rules/currency.js';
import type { Transaction } from '../../rules/transactions.js';
import type { AmountAsSent } from '../proof/payout-identity.js';
import { isFinalStatus, rank } from '../tracking/payout-status.js';

/** The rows of a reconciliation, what they are set against, and the CSV they are written as. */

/** A payout you meant to make, as your records hold it, for `reconcilePayouts`. */
export type ExpectedPayout = {
  /** The `externalReference` it was sent with. */
  reference: string;
  currency: string;
  /** The listed row's id, when known (the POST's answer `id`): the surest way to find it. */
  transactionId?: string;
  /**
   * The remark it was sent with: how a payout whose reference the service assigns (NGN) is found without its id.
   * Two payouts in one currency may not share one (compared by `remarkKey`).
   */
  remark?: string;
  /** The fee the service answered with, in minor units (the POST's `fee_amount`), to compare with the listing's. */
  fee?: number;
  /** The payout's status as you last knew it, to compare with the listing's. */
  status?: string;
  /**
   * What your records say: `sent` (the payout exists; default), `unknown` (not known), `not_sent` (nothing
   * moved), `pending` (being sent, or sent near the period's ends: a listed row is accounted for, and a missing
   * one is not reported).
   */
  state?: 'sent' | 'unknown' | 'not_sent' | 'pending';
  /** Minor-unit digits, where the spec does not state them (USDC, USDT): without them the amount is not compared. */
  digits?: number;
} & AmountAsSent;

/** Options of `reconcilePayouts`. */
export interface ReconcileOptions {
  /** The period's start (inclusive): rows created from then on are read. */
  from: Date;
  /** The period's end (inclusive). */
  to: Date;
  /** The payouts your records hold for the period. */
  payouts: ExpectedPayout[];
  /** Queries per listing at most (100 rows each). Default 10,000. */
  maxLookupPages?: number;
  signal?: AbortSignal;
  /** Milliseconds per listing request. Default: the client's. */
  timeout?: number;
}

/** One difference between the listing and your records. */
export interface ReconciliationRow {
  /**
   * - `unrecorded`: a withdrawal in the listing that no record accounts for (sent outside your records, or by a bug);
   * - `unlisted`: a payout recorded as sent that the listing does not show (only from a complete read);
   * - `duplicate`: a second withdrawal that is the same payout, both having moved money (neither `failed`,
   *   `rejected` nor `cancelled`): it moved twice. The row set against the record is the one that moved money,
   *   else the earliest created;
   * - `status`, `amount`, `fee`: the listing says otherwise than the record (`destination_amount` and its
   *   currency against the request, `fee_amount` against the answer's);
   * - `unknown_listed`: a payout whose outcome was unknown is in the listing: it exists;
   * - `contradicted`: a payout recorded as not sent (nothing moved) is in the listing.
   */
  kind:
    | 'unrecorded'
    | 'unlisted'
    | 'duplicate'
    | 'status'
    | 'amount'
    | 'fee'
    | 'unknown_listed'
    | 'contradicted';
  /** Your reference, where a record is involved. */
  reference?: string;
  /** The listed row's id, where a row is involved. */
  transactionId?: string;
  /** The reference the listing shows. */
  listedReference?: string;
  /**
   * What the record says, and what the listing says: a status, or an amount in major units beside its currency
   * (`120.00 USD`); where the currency's digits are not known, its minor units, named so (`12000 USDC minor units`).
   */
  expected?: string;
  listed?: string;
  /** The difference in words. */
  detail: string;
  /**
   * `status` rows: the record is only behind the listing, not in conflict with it. Its status was not final and
   * the listing shows a later one in the status order (recorded `processing`, listed `completed`): no tracking
   * round has seen it since. A tracking round, or `observe` with `transaction`, brings the record up to date.
   */
  stale?: true;
  /** The listed row. */
  transaction?: Transaction;
}

/** What a reconciliation read and found. */
export interface ReconciliationReport {
  from: string;
  to: string;
  /**
   * Every listing was read to the end it declared (and, for the outbox, the service's clock could be measured
   * from the store's); otherwise `reason`, and no payout is reported `unlisted`.
   */
  complete: boolean;
  reason?: string;
  /** Withdrawals listed in the period. */
  listed: number;
  /** Payouts of your records checked. */
  payouts: number;
  /**
   * The service's clock less the one your records were written by (the outbox's store's; for `reconcilePayouts`,
   * this machine's), as the answers' `Date` headers showed it, to a second. Absent when none carried one.
   */
  serviceClockOffsetMs?: number;
  rows: ReconciliationRow[];
}

/**
 * The minor units of a request amount, where the currency's digits are known; else undefined. Throws a
 * `RequestValidationError` (`amount`, `digits`) for an amount the currency cannot hold.
 */
export function minorOf(p: ExpectedPayout): number | undefined {
  if (p.amountMinor !== undefined) return p.amountMinor;
  if (p.digits === undefined && currencyDigits(p.currency) === undefined) return undefined;
  return toMinorUnits(p.currency, p.amount, p.digits);
}

const listedOf = (row: Transaction) => ({
  transactionId: row.id,
  ...(row.external_reference === undefined ? {} : { listedReference: row.external_reference }),
  transaction: row,
});
/**
 * An amount of minor units as a person reads it: major units beside the code where the currency's digits are known
 * (`120.00 USD`), else the minor units named so (`12000 USDC minor units`). Written bare beside the code, 12000
 * would read as twelve thousand dollars.
 */
export function amountText(minor: number | undefined, currency: string | undefined, digits?: number): string {
  const code = currency?.trim().toUpperCase();
  if (minor === undefined) return `? ${code ?? '?'}`;
  if (code === undefined) return `${minor} minor units (no currency listed)`;
  const places = digits ?? currencyDigits(code);
  if (places === undefined || !Number.isSafeInteger(minor)) return `${minor} ${code} minor units`;
  return `${toMajorUnits(code, minor, places)} ${code}`;
}

/** The record's digits for a listed currency, when it is the record's own (USDC with `digits`); else none. */
const digitsFor = (p: ExpectedPayout, code: string | undefined) =>
  code !== undefined && code.trim().toUpperCase() === p.currency.trim().toUpperCase() ? p.digits : undefined;

export function unrecorded(row: Transaction): ReconciliationRow {
  const amount = amountText(row.destination_amount, row.destination_currency ?? row.source_currency);
  const under = row.external_reference ? ` listed under ${row.external_reference}` : '';
  const detail = `a withdrawal of ${amount} (${row.status})${under} that no record accounts for`;
  return { kind: 'unrecorded', ...listedOf(row), listed: amount, detail };
}

/** Statuses of a row whose money did not move (or came back before it was paid out). */
const NOT_MOVED = new Set(['failed', 'rejected', 'cancelled']);

/** Whether a listed row moved money (or may yet): any status but failed, rejected or cancelled. */
export const movedMoney = (row: Transaction) => !NOT_MOVED.has(row.status);

const createdMs = (row: Transaction) => {
  const at = Date.parse(row.created_at);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
};

/**
 * The order in which rows of one record are its row: one that moved money first, then the earliest created, then
 * by id; the same whatever order the listings were read in.
 */
export function preferred(a: Transaction, b: Transaction): number {
  const moved = Number(movedMoney(b)) - Number(movedMoney(a));
  if (moved !== 0) return moved;
  const [x, y] = [createdMs(a), createdMs(b)];
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Another row of a record besides `first`, both having moved money. */
export function duplicate(p: ExpectedPayout, first: Transaction, row: Transaction): ReconciliationRow {
  const detail = `a second withdrawal is this payout (the first is ${first.id}), both moved money (${first.status}, ${row.status}): it moved twice`;
  return { kind: 'duplicate', reference: p.reference, ...listedOf(row), detail };
}

/** A recorded status that is not final, and a listed one later in the status order: the record is behind. */
const isBehind = (recorded: string, listed: string) => {
  const [was, is] = [rank(recorded), rank(listed)];
  return !isFinalStatus(recorded) && was !== undefined && is !== undefined && is > was;
};

/** What the listing says otherwise than the record of a payout it shows. */
export function differences(
  p: ExpectedPayout,
  row: Transaction,
  minor: number | undefined,
): ReconciliationRow[] {
  const at = { reference: p.reference, ...listedOf(row) };
  const state = p.state ?? 'sent';
  if (state === 'pending') return [];
  if (state === 'unknown') {
    return [
      {
        kind: 'unknown_listed',
        ...at,
        listed: row.status,
        detail: 'its outcome was unknown; the listing shows it: it exists',
      },
    ];
  }
  if (state === 'not_sent') {
    return [
      {
        kind: 'contradicted',
        ...at,
        listed: row.status,
        detail: 'recorded as not sent (nothing moved), yet listed',
      },
    ];
  }
  const found: ReconciliationRow[] = [];
  if (p.status !== undefined && p.status !== row.status) {
    const behind = isBehind(p.status, row.status);
    found.push({
      kind: 'status',
      ...at,
      expected: p.status,
      listed: row.status,
      detail: `recorded ${p.status}, listed ${row.status}${behind ? ' (the record is stale: not followed since)' : ''}`,
      ...(behind ? { stale: true as const } : {}),
    });
  }
  const currency = p.currency.trim().toUpperCase();
  const listedCurrency = (row.destination_currency ?? row.source_currency)?.toUpperCase();
  if ((minor !== undefined && row.destination_amount !== minor) || listedCurrency !== currency) {
    // Without the currency's digits the request's amount stays as given, in major units.
    const expected = minor === undefined ? `${p.amount} ${currency}` : amountText(minor, currency, p.digits);
    const listed = amountText(row.destination_amount, listedCurrency, digitsFor(p, listedCurrency));
    found.push({
      kind: 'amount',
      ...at,
      expected,
      listed,
      detail: `requested ${expected}, listed destination_amount ${listed}`,
    });
  }
  if (p.fee !== undefined && row.fee_amount !== p.fee) {
    // Fees are minor units of the source currency, the POST's answer as the listing.
    const source = row.source_currency;
    const [expected, listed] = [p.fee, row.fee_amount].map((fee) =>
      source === undefined ? `${fee ?? '?'} minor units` : amountText(fee, source, digitsFor(p, source)),
    );
    found.push({
      kind: 'fee',
      ...at,
      expected,
      listed,
      detail: `answered fee_amount ${expected}, listed ${listed}`,
    });
  }
  return found;
}

const CSV_COLUMNS = [
  'kind',
  'reference',
  'transaction_id',
  'listed_reference',
  'expected',
  'listed',
  'detail',
];

/**
 * A report's rows as CSV (RFC 4180, a header line, CRLF). Every cell is quoted, and one that a spreadsheet
 * would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) gets a `'` before it.
 */
export function reconciliationCsv(report: Pick<ReconciliationReport, 'rows'>): string {
  const cell = (value: string | undefined) => {
    const text = value ?? '';
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return `"${safe.replaceAll('"', '""')}"`;
  };
  const lines = report.rows.map((r) =>
    [r.kind, r.reference, r.transactionId, r.listedReference, r.expected, r.listed, r.detail]
      .map(cell)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
