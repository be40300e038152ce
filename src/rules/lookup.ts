import * as z from 'zod/mini';
import { strictObject, trimmedString } from './schema.js';

/**
 * POST /lookup as the spec states it: Nigerian accounts only; `bankCode` and `accountNumber` (a 10-digit NUBAN)
 * required, trimmed, blank counting as absent; `currency` only `NGN`, assumed when omitted. The messages are
 * the service's own 400 messages.
 */
export const LOOKUP_MESSAGES = {
  bankCode: 'Bank code is required',
  accountNumber: 'Account number is required',
  currency: 'Currency must be one of: NGN',
} as const;

/** A Nigerian account number (NUBAN): 10 digits. */
export const NUBAN = /^\d{10}$/;

// The service trims and treats blank as absent, so the SDK does the same and reports "required" up front.
const trimmed = (required: string) => trimmedString.check(z.refine((value) => value !== '', required));

/** The body of POST /lookup, checked before sending. */
export const LookupParamsSchema = strictObject({
  /** From `banks.list()`; trimmed before sending, blank counts as absent. */
  bankCode: trimmed(LOOKUP_MESSAGES.bankCode),
  /** 10-digit NUBAN; trimmed before sending, blank counts as absent. */
  accountNumber: z.pipe(
    trimmed(LOOKUP_MESSAGES.accountNumber),
    z.string().check(z.refine((v) => NUBAN.test(v), 'must be a 10-digit NUBAN')),
  ),
  /** Only `NGN`, assumed when omitted. */
  currency: z.optional(z.enum(['NGN'], LOOKUP_MESSAGES.currency)),
});

/** Parameters of a name enquiry. */
export type LookupParams = z.input<typeof LookupParamsSchema>;
