import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../internal/request-options.js';
import { type LookupParams, LookupParamsSchema } from '../rules/lookup.js';
import { looseObject, parseRequest } from '../rules/schema.js';
import { APIResource, keyedList } from './resource.js';

/** A Nigerian bank from GET /banks. `bankCode` is the NIP institution code. */
export const BankSchema = looseObject({
  /** The bank's name. */
  bankName: z.string(),
  /** NIP institution code: the `bankCode` of `banks.lookup` and of a payout's beneficiary. */
  bankCode: z.string(),
});
/** A Nigerian bank from GET /banks. */
export type Bank = z.infer<typeof BankSchema>;

/** The result of a name enquiry (POST /lookup). */
export const AccountLookupSchema = looseObject({
  /** The 10-digit NUBAN looked up. */
  accountNumber: z.string(),
  /** The name returned by the name enquiry, not one supplied by the caller. */
  accountName: z.string(),
  /** NIP institution code. */
  bankCode: z.string(),
  /** The bank's name. */
  bankName: z.string(),
  /** Always an empty string, kept only for parsing compatibility: the service returns no BVN. */
  bvn: z.optional(z.string()),
  /**
   * Always true: `accountName` came from the name enquiry. It does not mean the name matches one you hold;
   * compare it yourself.
   */
  accountNameVerified: z.optional(z.boolean()),
});
/** The result of a name enquiry. */
export type AccountLookup = z.infer<typeof AccountLookupSchema>;

/** Nigerian banks and name enquiry. */
export class Banks extends APIResource {
  /** GET /banks: every supported Nigerian bank (the service caches and refreshes the list). */
  list(options?: RequestOptions): APIPromise<Bank[]> {
    return keyedList(this.api, 'banks.list', '/banks', 'banks', BankSchema, options);
  }

  /**
   * POST /lookup: confirms the holder name of a Nigerian account. Unknown accounts give `NotFoundError`.
   * A read, so it is retried like a GET.
   */
  lookup(params: LookupParams, options?: RequestOptions): APIPromise<AccountLookup> {
    return this.api.call(
      () => ({
        method: 'POST',
        path: '/lookup',
        body: parseRequest(LookupParamsSchema, params),
        idempotent: true,
        schema: AccountLookupSchema,
        options,
      }),
      'banks.lookup',
    );
  }
}
