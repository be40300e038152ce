import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  APIError,
  BeneficiaryVerificationError,
  currencyDigits,
  isLegacyTransaction,
  PaymentsError,
  type Payout,
  RequestValidationError,
  sameHolderName,
  type TransactionListItem,
  toMajorUnits,
} from 'payments-service-sdk';

/** An amount stated both ways. `major` is null where the spec does not give the currency's digits (USDC, USDT). */
export interface Money {
  minor: number;
  major: string | null;
  currency: string | null;
}

export function money(minor: number, currency: string | undefined): Money {
  const code = currency?.toUpperCase();
  const known = code !== undefined && currencyDigits(code) !== undefined;
  return { minor, major: known ? toMajorUnits(code, minor) : null, currency: code ?? null };
}

const AMOUNT_FIELDS = ['fee_amount', 'source_amount', 'destination_amount'] as const;

/** A listed transaction with each amount as `Money`. */
export function transactionOut(row: TransactionListItem): Record<string, unknown> {
  if (isLegacyTransaction(row)) {
    const { amount, ...rest } = row;
    return amount === undefined ? { ...rest } : { ...rest, amount: money(amount, row.currency) };
  }
  const out: Record<string, unknown> = { ...row };
  // The spec does not name the fee's currency; where source and destination agree there is only one candidate.
  const fee =
    row.source_currency && row.source_currency === row.destination_currency ? row.source_currency : undefined;
  const currencyOf = {
    fee_amount: fee,
    source_amount: row.source_currency,
    destination_amount: row.destination_currency,
  };
  for (const field of AMOUNT_FIELDS) {
    const value = row[field];
    if (value !== undefined) out[field] = money(value, currencyOf[field]);
  }
  return out;
}

/** POST /payouts' answer (minor units) with each amount as `Money` in the payout's currency. */
export function payoutOut(payout: Payout, currency: string): Record<string, unknown> {
  return {
    ...payout,
    fee_amount: money(payout.fee_amount, currency),
    destination_amount: money(payout.destination_amount, currency),
    amount: money(payout.amount, currency),
  };
}

/** Removes the API key from any text that leaves the process. */
export type Redact = (text: string) => string;

export function redactor(apiKey: string): Redact {
  return (text) => (apiKey ? text.replaceAll(apiKey, '[redacted]') : text);
}

/** A result: a one-line summary plus the JSON for hosts that show text only, and the same data structured. */
export function result(
  redact: Redact,
  summary: string,
  data: Record<string, unknown>,
  isError = false,
): CallToolResult {
  const json = JSON.parse(redact(JSON.stringify(data))) as Record<string, unknown>;
  return {
    content: [{ type: 'text', text: redact(`${summary}\n${JSON.stringify(json, null, 2)}`) }],
    structuredContent: json,
    ...(isError ? { isError: true } : {}),
  };
}

/** The operator's guards that can refuse a payout, as a refusal names them. */
export type Guard = 'payout_cap' | 'daily_cap' | 'allowlist' | 'confirmation' | 'reference';

/** An error the server itself raises before anything is sent (a cap, a name mismatch, a guard). */
export class PayoutRefusedError extends PaymentsError {
  override name = 'PayoutRefusedError';
  /** The guard that refused, where one did: an agent can tell "ask the operator" from "fix the call". */
  declare readonly guard?: Guard;
  constructor(message: string, guard?: Guard) {
    super(message);
    // As the SDK's errors: no own field whose value is undefined.
    if (guard !== undefined) this.guard = guard;
  }
}

/** Holder names compared as the SDK's `verifyBeneficiary` compares them: case, spacing, punctuation and word order aside. */
export const sameName = sameHolderName;

/** Any thrown error as a tool error: the SDK's class name and message, and the fields an agent can act on. */
export function errorResult(
  redact: Redact,
  error: unknown,
  extra: Record<string, unknown> = {},
): CallToolResult {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const detail: Record<string, unknown> = { class: name, message };
  if (error instanceof RequestValidationError) detail.issues = error.issues;
  if (error instanceof PayoutRefusedError && error.guard) detail.guard = error.guard;
  if (error instanceof BeneficiaryVerificationError) detail.reason = error.reason;
  if (error instanceof APIError) {
    detail.status = error.status;
    if (error.code !== undefined) detail.code = error.code;
    if (error.errors !== undefined) detail.errors = error.errors;
    if (error.requestId !== undefined) detail.requestId = error.requestId;
    if (error.retryAfter !== undefined) detail.retryAfterSeconds = error.retryAfter;
  }
  return result(redact, `${name}: ${message}`, { error: detail, ...extra }, true);
}
