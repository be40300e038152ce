import { invalid } from '../../core/error.js';
import { toMinorUnits } from '../../rules/currency.js';
import type { PayoutWire } from '../../rules/payout.js';
import { isLegacyTransaction, type Transaction, type TransactionListItem } from '../../rules/transactions.js';
import { remarkKey } from '../remark-key.js';
import { type PayoutDifference, rowDifferences } from '../same-payout.js';

export { remarkKey };

/** Two remarks with one key, or one cut from the other (a service may shorten a description). */
const sameRemark = (a: string, b: string) => {
  const [x, y] = [remarkKey(a), remarkKey(b)];
  return x !== '' && y !== '' && (x.startsWith(y) || y.startsWith(x));
};

/**
 * How a payout is recognised in the transaction listing, and what a listed row says about it: this is the
 * payout, it is another one, or it might be this one and nobody can tell (a doubt, which makes a search that
 * meets it no proof of absence). Written once for `lookupBeforeRetry`, `findByReference`, the outbox and the
 * MCP server.
 */

/** A listed row could be the payout, but nothing in it can settle that: the reason, in words. */
export interface PayoutMatchDoubt {
  doubt: string;
  /** A row under the caller's reference whose details differ: the reference may be another payout's. */
  conflict?: ReferenceConflict;
}

/** A listed row under the reference sent, and how it differs from the payout sent. */
export interface ReferenceConflict {
  row: Transaction;
  differences: PayoutDifference[];
}

/**
 * Decides whether a listed transaction is the payout sent with `externalReference`: `true`, `false`, or a
 * `{ doubt }` when the row might be it and nothing in it can settle that (a search that meets one proves nothing).
 */
export type PayoutMatch = (transaction: Transaction, externalReference: string) => boolean | PayoutMatchDoubt;

/** What one row says: the payout, another transaction, or a doubt. */
export type Verdict = true | false | PayoutMatchDoubt;

/** A listed row judged against the payout's identity. */
export type Judge = (row: TransactionListItem) => Verdict;

const code = (currency: string) => currency.trim().toUpperCase();
const doubt = (why: string): PayoutMatchDoubt => ({ doubt: why });

/**
 * Judges a row as a payout would be listed. The spec shows `withdrawal` and `deposit` "and other values: not
 * shown", and never which type a payout's row has: a deposit is never the payout, a withdrawal is judged by
 * `judge`, and a row of another type (or none) might be it: what would recognise a withdrawal is a doubt there.
 */
function asPayout(judge: (row: Transaction) => Verdict): (row: Transaction) => Verdict {
  return (row) => {
    const type = row.transaction_type;
    if (type === 'deposit') return false;
    const verdict = judge(row);
    if (type === 'withdrawal' || verdict === false) return verdict;
    const shown =
      typeof type === 'string' ? `of type ${JSON.stringify(type.slice(0, 40))}` : 'without a type';
    const what = verdict === true ? 'matches this payout' : `might be it (${verdict.doubt})`;
    return doubt(`a row ${shown}, which the spec does not show, ${what} (${row.id})`);
  };
}

/** What is wrong with a remark that identifies a payout, as `referenceIssue` for references. */
export function remarkIssue(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (remarkKey(value) === '') return 'must not be empty or only white space';
  if (value.trim() !== value) {
    return 'must not start or end with white space (the service may trim it, and the payout would not be recognised)';
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'must not contain control characters';
  return undefined;
}

/** A request's amount as it was sent: in MAJOR units (`amount`), or in MINOR units (`amountMinor`). */
export type AmountAsSent =
  | {
      /** The request amount, in MAJOR units, as sent. */
      amount: string | number;
      amountMinor?: undefined;
    }
  | {
      amount?: undefined;
      /** The request amount, in MINOR units, as sent. */
      amountMinor: number;
    };

/** A payout recognised by its remark: the fields that identify it, as sent. */
export type RemarkIdentity = {
  /** The remark as sent; the listing shows it as the row's `description`. */
  remark: string;
  /** The currency code. */
  currency: string;
} & AmountAsSent;

const remarkKeys = new WeakMap<PayoutMatch, string>();

/**
 * The remark key a match made by `remarkMatch` recognises its payout by: a tracking round indexes it, instead of
 * asking the match of every row (the match still decides). Undefined for any other match.
 */
export const remarkKeyOf = (match: PayoutMatch): string | undefined => remarkKeys.get(match);

/**
 * A `match` that recognises a payout by its remark, for currencies whose listed reference the service assigns
 * (NGN): a withdrawal (a row of a type the spec does not show: a doubt) whose `description` has the same
 * normalised key (see `remarkKey`), in the same currency, for the same amount (`destination_amount` against the
 * request's, in minor units). A row with the same remark and another amount or currency is another payout; one
 * that omits either cannot be told apart (a doubt). The remark must be unique to this payout within the lookup
 * window: the outbox keeps it so.
 */
export function remarkMatch(payout: RemarkIdentity, digits?: number): PayoutMatch {
  const problem = remarkIssue(payout.remark);
  if (problem) throw invalid(['remark'], problem);
  const key = remarkKey(payout.remark);
  const currency = code(payout.currency);
  const minor = payout.amountMinor ?? toMinorUnits(currency, payout.amount as string | number, digits);
  if (!Number.isSafeInteger(minor) || minor <= 0)
    throw invalid(['amountMinor'], 'must be a whole number of minor units');
  const match: PayoutMatch = asPayout((row) => {
    const listedKey = row.description === undefined ? '' : remarkKey(row.description);
    const currencies = [row.destination_currency, row.source_currency].filter((c) => c !== undefined);
    const ours = currencies.length === 0 || currencies.some((c) => code(c) === currency);
    // No usable key: a row with this payout's content (currency and amount) might be it.
    if (listedKey === '') {
      return ours && row.destination_amount === minor
        ? doubt(`a withdrawal of the same amount lists no remark (${row.id})`)
        : false;
    }
    // Another remark proves another payout, unless one is cut from the other (a service may shorten it).
    const shortened = listedKey !== key && (key.startsWith(listedKey) || listedKey.startsWith(key));
    if (listedKey !== key && !shortened) return false;
    if (currencies.length === 0)
      return doubt(`a withdrawal with the same remark lists no currency (${row.id})`);
    if (!ours) return false;
    if (shortened) return doubt(`a withdrawal lists this remark shortened or lengthened (${row.id})`);
    if (row.destination_amount === undefined) {
      return doubt(`a withdrawal with the same remark lists no destination_amount (${row.id})`);
    }
    // The same remark for another amount: a fee taken from it, other units, or another payout. Nobody can tell.
    if (row.destination_amount !== minor) {
      return doubt(
        `a withdrawal with the same remark lists destination_amount ${row.destination_amount}, not ${minor} (${row.id})`,
      );
    }
    return true;
  });
  remarkKeys.set(match, key);
  return match;
}

/**
 * The default identity: a withdrawal listed under this exact reference (a deposit may carry the same text). A
 * withdrawal listed without a reference might be it. When the payout's currency is not known, so might one
 * listed under a reference the service assigned (a currency of `assigns`). When it is known and is such a
 * currency, the reference proves nothing either way: `identityGap` says so.
 */
function byReference(
  ref: string,
  currency: string | undefined,
  assigns: (currency: string) => boolean,
  sent: PayoutWire | undefined,
): (row: Transaction) => Verdict {
  return asPayout((row) => {
    if (!Object.hasOwn(row, 'external_reference'))
      return doubt('the listing holds a withdrawal without a reference');
    if (row.external_reference === ref) {
      const differences = sent ? rowDifferences(sent, row) : [];
      if (differences.length === 0) return true;
      const fields = differences.map((d) => `${d.field} (sent ${d.sent}; listed ${d.shown})`).join(', ');
      return {
        doubt: `a withdrawal under this reference differs in ${fields} (${row.id})`,
        conflict: { row, differences },
      };
    }
    // This payout's remark under a reference it was not sent with: the service may assign this currency's
    // references (mobile money) though nobody said so. Not proof of another payout.
    if (sent?.remark && row.description !== undefined && sameRemark(sent.remark, row.description)) {
      return doubt(
        `a withdrawal with this payout's remark is listed under the reference ${JSON.stringify(String(row.external_reference).slice(0, 40))}: ` +
          'the service may assign these references (name the currency in serviceAssignedCurrencies and pass match)',
      );
    }
    if (currency !== undefined) return false;
    const listed = row.source_currency ?? row.destination_currency;
    if (listed !== undefined && !assigns(listed)) return false;
    const what = listed === undefined ? 'a withdrawal without a currency' : `a ${code(listed)} withdrawal`;
    return doubt(
      `the listing holds ${what} under a reference the service assigns; pass currency (or match) to tell whether it is this payout`,
    );
  });
}

/**
 * Why a search by reference cannot prove this payout absent, if it cannot: its currency is one whose listed
 * reference the service assigns, and no `match` recognises it otherwise.
 */
export function identityGap(
  options: { match?: PayoutMatch | undefined; currency?: string | undefined },
  assigns: (currency: string) => boolean,
): string | undefined {
  if (options.match || options.currency === undefined || !assigns(options.currency)) return undefined;
  return (
    `the service lists ${code(options.currency)} payouts under a reference it assigns, so their absence under yours ` +
    'proves nothing: pass match (e.g. remarkMatch on a unique remark) or find to recognise it'
  );
}

/**
 * The judge of one search: the caller's `match` when given, else the reference. A row in the older listing form
 * carries no reference or type to judge by: always a doubt.
 */
export function judgeOf(
  ref: string,
  options: {
    match?: PayoutMatch | undefined;
    currency?: string | undefined;
    payout?: PayoutWire | undefined;
  },
  assigns: (currency: string) => boolean,
): Judge {
  const match = options.match ?? byReference(ref, options.currency, assigns, options.payout);
  return (row) => {
    if (isLegacyTransaction(row))
      return doubt('the listing holds rows in the older form, without references');
    const verdict = match(row, ref);
    return typeof verdict === 'boolean' || (verdict && typeof verdict.doubt === 'string')
      ? verdict
      : doubt(`match returned ${typeof verdict}, not true, false or { doubt }`);
  };
}
