import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../internal/config.js';
import { pickList } from '../internal/envelope.js';
import { parseRequest } from '../internal/schema.js';
import { LookupParamsSchema } from '../rules/lookup.js';
import { APIResource } from './resource.js';

/** A Nigerian bank from GET /banks. `bankCode` is the NIP institution code. */
export const BankSchema = z.looseObject({ bankName: z.string(), bankCode: z.string() });
/** A Nigerian bank from GET /banks. */
export type Bank = z.infer<typeof BankSchema>;

/** The result of a name enquiry (POST /lookup). */
export const AccountLookupSchema = z.looseObject({
  accountNumber: z.string(),
  /** The holder name the bank returned, not one the caller supplied. */
  accountName: z.string(),
  bankCode: z.string(),
  bankName: z.string(),
  /** Always an empty string; kept only for parsing compatibility. */
  bvn: z.optional(z.string()),
  /** Always true. */
  accountNameVerified: z.optional(z.boolean()),
});
/** The result of a name enquiry. */
export type AccountLookup = z.infer<typeof AccountLookupSchema>;

export { LookupParamsSchema };

/** Parameters of a name enquiry. */
export interface LookupParams {
  /** From `banks.list()`. */
  bankCode: string;
  /** 10-digit NUBAN. */
  accountNumber: string;
  /** Only `NGN`, assumed when omitted. */
  currency?: 'NGN';
}

/** Nigerian banks and name enquiry. */
export class Banks extends APIResource {
  /** GET /banks: every supported Nigerian bank (the service caches and refreshes the list). */
  list(options?: RequestOptions): APIPromise<Bank[]> {
    return this.api.call(
      {
        method: 'GET',
        path: '/banks',
        select: (r) => pickList(r.payload, 'banks'),
        schema: z.array(BankSchema),
        options,
      },
      'banks.list',
    );
  }

  /**
   * POST /lookup: confirms the holder name of a Nigerian account. Unknown accounts give `NotFoundError`.
   * A read, so it is retried like a GET.
   */
  lookup(params: LookupParams, options?: RequestOptions): APIPromise<AccountLookup> {
    return this.api.call(async () => {
      const body = parseRequest(LookupParamsSchema, params);
      return {
        method: 'POST',
        path: '/lookup',
        body,
        idempotent: true,
        schema: AccountLookupSchema,
        options,
      };
    }, 'banks.lookup');
  }
}
