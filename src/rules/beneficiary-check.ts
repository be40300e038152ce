import type * as z from 'zod/mini';
import { invalid } from '../core/error.js';
import { ownField } from '../core/own.js';
import { NUBAN } from './lookup.js';

/**
 * What a payout's beneficiary must be before money leaves: the NUBAN rule (always, for NGN), how holder names are
 * compared, and the option that asks the service (`verifyBeneficiary`). The check itself, which sends GET /banks
 * and POST /lookup, is `payouts/beneficiary-check.ts`.
 */

/** The name check before money leaves, as a client option and per call. */
export interface BeneficiaryCheckOptions {
  /**
   * Confirm the beneficiary with the service before a payout is sent or recorded: `payouts.create`,
   * `lookupBeforeRetry` (before its first POST), `payouts.verify`, the outbox's `enqueue` (before it records).
   * Default `false`; a call's own value wins over the client's.
   *
   * NGN: `bankCode` must be one GET /banks lists (the list is kept per client for an hour, and fetched once more
   * on a miss before refusing), and POST /lookup must know the account and name a holder that matches
   * `accountName`, compared ignoring case, white space, punctuation and word order. Any failure is a
   * `BeneficiaryVerificationError` (`reason`), and nothing is sent or recorded; so is a lookup that cannot run
   * (a 5xx, a timeout, no answer): the payout never leaves on a check that did not happen.
   *
   * Other currencies: the spec has no name enquiry and no bank list for them, so nothing is asked of the service;
   * the body's own checks apply, and nothing confirms the holder, the account number or the bank code.
   *
   * Whatever this says, an NGN `accountNumber` must be a 10-digit NUBAN (checked before any request).
   */
  verifyBeneficiary?: boolean | undefined;
}

/** How long a client keeps GET /banks' list before fetching it again (a miss fetches it at once). */
export const BANK_LIST_TTL_MS = 60 * 60_000;

/** Whether a call checks its beneficiary: its own `verifyBeneficiary`, else the client's. Refuses a non-boolean. */
export function checksBeneficiary(call: unknown, client: boolean): boolean {
  if (call === undefined) return client;
  if (typeof call !== 'boolean') throw invalid(['verifyBeneficiary'], 'must be true or false');
  return call;
}

/** Whether a currency code is NGN, as the service reads a code (trimmed, any case). */
export const isNaira = (currency: unknown) =>
  typeof currency === 'string' && currency.trim().toUpperCase() === 'NGN';

/**
 * The NUBAN rule of a payout body: an NGN beneficiary's `accountNumber` is 10 digits (white space around it
 * aside, as the name enquiry trims it). Other currencies' account numbers have no rule in the spec.
 */
export function accountNumberIssues(body: Record<string, unknown>): z.core.$ZodRawIssue[] {
  if (!isNaira(ownField(body, 'currency'))) return [];
  const beneficiary = ownField(body, 'beneficiary');
  if (!beneficiary || typeof beneficiary !== 'object') return [];
  const number = ownField(beneficiary as Record<string, unknown>, 'accountNumber');
  if (typeof number !== 'string' || NUBAN.test(number.trim())) return [];
  const got = number.trim() === '' ? 'it is blank' : `got ${JSON.stringify(number)}`;
  const message = `must be a 10-digit NUBAN for an NGN payout (Nigerian bank accounts have 10 digits): ${got}`;
  return [{ code: 'custom', path: ['beneficiary', 'accountNumber'], message, input: number }];
}

/** The words of a holder name: letters and digits, in lower case, split at white space and punctuation. */
function words(name: string): string[] {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .split(/[\p{White_Space}\p{P}\p{S}]+/u)
    .filter((word) => word !== '');
}

/**
 * Whether two holder names name the same holder: equal once case, white space and punctuation are set aside
 * (`O'Neil` is `ONEIL`), or the same words in another order (a name enquiry may give the surname first). A name
 * with no letter or digit matches nothing.
 */
export function sameHolderName(a: string, b: string): boolean {
  const [x, y] = [words(a), words(b)];
  if (x.length === 0 || y.length === 0) return false;
  if (x.join('') === y.join('')) return true;
  return x.length === y.length && [...x].sort().join(' ') === [...y].sort().join(' ');
}
