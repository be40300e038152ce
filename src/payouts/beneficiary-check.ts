import { APIUserAbortError, NotFoundError, RequestValidationError } from '../core/error.js';
import type { RequestOptions } from '../internal/request-options.js';
import { BANK_LIST_TTL_MS, isNaira, sameHolderName } from '../rules/beneficiary-check.js';
import type { PayoutWire } from '../rules/payout.js';
import { BeneficiaryVerificationError, type BeneficiaryVerificationFacts } from './beneficiary-error.js';

/**
 * `verifyBeneficiary`: the name check before money leaves, one implementation for every payout path (`create`,
 * `lookupBeforeRetry`, `verify`, the outbox's `enqueue`, the MCP server). Loaded lazily, with what `create` needs after its checks (`send.ts`).
 */

type Failed = { request: 'GET /banks' | 'POST /lookup'; problem: string };
const SENT = 'Nothing was sent.';

/** The message of each refusal, word for word as docs/payouts.md quotes it. */
function messageOf(f: BeneficiaryVerificationFacts, failed?: Failed): string {
  const account = `account ${f.accountNumber} at bank ${f.bankCode}`;
  switch (f.reason) {
    case 'unknown_bank':
      return `beneficiary.bankCode ${JSON.stringify(f.bankCode)} is not among the bank codes GET /banks lists now: take bankCode from banks.list(). ${SENT}`;
    case 'unknown_account':
      return `no bank recognises ${account} (the name enquiry, POST /lookup, answered 404): check beneficiary.accountNumber and beneficiary.bankCode. ${SENT}`;
    case 'name_mismatch':
      return `beneficiary.accountName ${JSON.stringify(f.accountName)} does not match the holder the name enquiry gives for ${account}, ${JSON.stringify(f.enquiryName)} (compared ignoring case, spacing, punctuation and word order). ${SENT}`;
    case 'check_failed':
      return `the beneficiary could not be checked (${failed?.request}: ${failed?.problem}), so the payout is refused rather than sent unchecked: try again later. ${SENT}`;
  }
}

/** What the check needs of the client: the bank codes it keeps, and POST /lookup. */
export interface BeneficiaryCheckDeps {
  banks: BankCodes;
  lookup: (
    params: { bankCode: string; accountNumber: string },
    options: RequestOptions | undefined,
  ) => PromiseLike<{ accountNumber: string; accountName: string; bankCode: string }>;
}

/**
 * The bank codes GET /banks lists, kept per client for `BANK_LIST_TTL_MS` (the service itself caches the list and
 * refreshes it periodically). A code the list kept does not hold is asked again at once, so a bank listed since is
 * found; a refresh that fails still lets through a code the last list held (banks rarely leave the list).
 */
export class BankCodes {
  #codes: ReadonlySet<string> | undefined;
  #at = 0;
  #loading: Promise<ReadonlySet<string>> | undefined;

  constructor(private readonly list: () => PromiseLike<ReadonlyArray<{ bankCode: string }>>) {}

  /** Whether GET /banks lists `code`: from the list kept while it is fresh, else (or on a miss) from a new one. */
  async lists(code: string): Promise<boolean> {
    const age = Date.now() - this.#at;
    const fresh = this.#codes !== undefined && age >= 0 && age < BANK_LIST_TTL_MS;
    if (fresh && this.#codes!.has(code)) return true;
    try {
      return (await this.#load()).has(code);
    } catch (error) {
      if (this.#codes?.has(code)) return true;
      throw error;
    }
  }

  /** One GET /banks at a time, shared by the checks waiting for it. */
  #load(): Promise<ReadonlySet<string>> {
    if (this.#loading) return this.#loading;
    const loading = Promise.resolve()
      .then(() => this.list())
      .then((banks) => {
        // An empty list cannot tell a real bank from a typo: no check at all, rather than refusing every payout.
        if (banks.length === 0) throw new Error('the list was empty');
        this.#codes = new Set(banks.map((bank) => bank.bankCode.trim()));
        this.#at = Date.now();
        return this.#codes;
      })
      .finally(() => {
        if (this.#loading === loading) this.#loading = undefined;
      });
    this.#loading = loading;
    return loading;
  }
}

/**
 * Confirms an NGN payout's beneficiary (other currencies: nothing to ask, see `BeneficiaryCheckOptions`): its bank
 * code is listed, the name enquiry knows the account, and names the holder given. Throws
 * `BeneficiaryVerificationError` otherwise, or when the check cannot run; an abort is rethrown as it is.
 */
export async function checkBeneficiary(
  deps: BeneficiaryCheckDeps,
  wire: PayoutWire,
  options: RequestOptions | undefined,
): Promise<void> {
  if (!isNaira(wire.currency)) return;
  const { accountName } = wire.beneficiary;
  const asked = {
    accountNumber: wire.beneficiary.accountNumber.trim(),
    bankCode: wire.beneficiary.bankCode.trim(),
  };
  const refusal = (
    said: Pick<BeneficiaryVerificationFacts, 'reason' | 'enquiryName'>,
    cause?: unknown,
    failed?: Failed,
  ) => {
    const facts = { accountName, ...asked, ...said };
    return new BeneficiaryVerificationError(messageOf(facts, failed), facts, { cause });
  };
  const failed = (request: Failed['request'], error: unknown) => {
    if (error instanceof APIUserAbortError || error instanceof RequestValidationError) return error;
    const problem = error instanceof Error ? error.message : String(error);
    return refusal({ reason: 'check_failed' }, error, { request, problem });
  };

  const listed = await deps.banks.lists(asked.bankCode).catch((error: unknown) => {
    throw failed('GET /banks', error);
  });
  if (!listed) throw refusal({ reason: 'unknown_bank' });
  const found = await Promise.resolve(deps.lookup(asked, options)).catch((error: unknown) => {
    throw error instanceof NotFoundError
      ? refusal({ reason: 'unknown_account' }, error)
      : failed('POST /lookup', error);
  });
  // An answer about another account (a proxy's cache, a confused service) confirms nothing about this one.
  if (found.accountNumber.trim() !== asked.accountNumber || found.bankCode.trim() !== asked.bankCode) {
    const other = `the name enquiry answered for account ${found.accountNumber} at bank ${found.bankCode}, not the one asked`;
    throw failed('POST /lookup', new Error(other));
  }
  if (!sameHolderName(found.accountName, accountName)) {
    throw refusal({ reason: 'name_mismatch', enquiryName: found.accountName });
  }
}
