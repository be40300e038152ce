import { nameClass, PaymentsError, setDefined } from '../core/error.js';

/**
 * Why `verifyBeneficiary` refused a payout: `unknown_bank` (GET /banks does not list the bank code),
 * `unknown_account` (POST /lookup answered 404), `name_mismatch` (the name enquiry names another holder), or
 * `check_failed` (the check could not run: a 5xx, a timeout, no answer, an answer about another account).
 */
export type BeneficiaryVerificationReason =
  | 'unknown_bank'
  | 'unknown_account'
  | 'name_mismatch'
  | 'check_failed';

/** What a refusal knows: the beneficiary as given, and what the service said. */
export interface BeneficiaryVerificationFacts {
  reason: BeneficiaryVerificationReason;
  /** `beneficiary.accountName` as given. */
  accountName: string;
  /** `beneficiary.accountNumber`, trimmed. */
  accountNumber: string;
  /** `beneficiary.bankCode`, trimmed. */
  bankCode: string;
  /** The holder the name enquiry gives (`name_mismatch`). */
  enquiryName?: string | undefined;
}

/**
 * A payout refused by `verifyBeneficiary` before it left (and, in the outbox, before it was recorded): nothing
 * was sent. `reason` says why; the message names the account, and for `name_mismatch` both names.
 */
export class BeneficiaryVerificationError extends PaymentsError {
  static {
    nameClass(BeneficiaryVerificationError, 'BeneficiaryVerificationError');
  }
  /** Why the payout was refused. */
  readonly reason: BeneficiaryVerificationReason;
  /** `beneficiary.accountName` as given. */
  readonly accountName: string;
  /** `beneficiary.accountNumber`, trimmed. */
  readonly accountNumber: string;
  /** `beneficiary.bankCode`, trimmed. */
  readonly bankCode: string;
  /** The holder the name enquiry gives, where it gave one (`name_mismatch`). */
  declare readonly enquiryName?: string;

  /** Made by the check (`payouts/beneficiary-check.ts`), which words the message. */
  constructor(message: string, facts: BeneficiaryVerificationFacts, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = facts.reason;
    this.accountName = facts.accountName;
    this.accountNumber = facts.accountNumber;
    this.bankCode = facts.bankCode;
    setDefined(this, { enquiryName: facts.enquiryName });
  }
}
