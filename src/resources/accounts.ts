import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { route } from '../internal/path.js';
import type { RequestOptions } from '../internal/request-options.js';
import { looseObject, openEnum, parseRequest } from '../rules/schema.js';
import {
  type PassThroughListParams,
  PlainRecordSchema,
  recordCall,
  recordList,
  type SchemaOptions,
} from './record-seam.js';
import { APIResource } from './resource.js';

/**
 * A tenant account. The spec does not show its fields (not even `id`): everything the service sends is kept.
 * Pass `{ schema }` to type it.
 */
export type Account = Record<string, unknown>;

/** Funding instructions of an account. The spec does not show their fields; pass `{ schema }` to type them. */
export type FundingInstructions = Record<string, unknown>;

/** A hosted identity-verification link for an individual account. */
export const IndividualKycLinkSchema = looseObject({
  /** The link's token. */
  token: z.string(),
  /** The hosted page where the holder uploads an ID and completes a liveness check; for white-label tenants on the tenant's branded subdomain. */
  url: z.string(),
  /**
   * `active` (usable until `expiresAt`), then `completed` (the holder passed) or `rejected` (failed; a rejected
   * link never becomes usable again: generate a new one, which clears the failed attempt).
   */
  status: openEnum(['active', 'completed', 'rejected']),
  /** ISO 8601 date-time, 72 hours after creation. A newer link for the same account invalidates this one. */
  expiresAt: z.string(),
  /** uuid of the individual account. */
  accountId: z.string(),
});
/** A hosted identity-verification (KYC) link. */
export type IndividualKycLink = z.infer<typeof IndividualKycLinkSchema>;

/** Paging of GET /accounts, plus a pass-through for parameters the spec does not show. */
export type AccountListParams = PassThroughListParams;

/**
 * The body of POST /accounts. The spec names the operation but not its fields, so the object is sent as
 * given; use the field names from your onboarding documentation.
 */
export type AccountCreateParams = Record<string, unknown>;

/** Accounts of a white-label tenancy. */
export class Accounts extends APIResource {
  /**
   * POST /accounts: onboards an account into the tenancy. Not retried: a repeat could create two. With
   * `{ schema }` the record is typed and checked by it; without, it is kept as the service sent it.
   */
  create<T = Account>(body: AccountCreateParams, given?: SchemaOptions<T>): APIPromise<T> {
    return recordCall(this.api, 'accounts.create', given, (schema) => {
      const checked = parseRequest(PlainRecordSchema, body, ['body']);
      return { method: 'POST', path: '/accounts', body: checked, schema };
    });
  }

  /**
   * GET /accounts: the tenancy's accounts, flat pagination with `hasMore`. With `{ schema }` each row is typed
   * and checked by it, e.g. `z.looseObject({ id: z.uuid() })` to hand `a.id` to `client.forAccount`; without,
   * rows are kept as the service sent them.
   */
  list<T = Account>(params: AccountListParams = {}, given?: SchemaOptions<T>): PagePromise<T> {
    return recordList(this.api, 'accounts.list', '/accounts', params, given);
  }

  /**
   * GET /accounts/{accountId}/funding-instructions, typed and checked by `{ schema }` when given; without, the
   * record as the service sent it.
   */
  fundingInstructions<T = FundingInstructions>(accountId: string, given?: SchemaOptions<T>): APIPromise<T> {
    return recordCall(this.api, 'accounts.fundingInstructions', given, (schema) => {
      const target = route('/accounts/{accountId}/funding-instructions', { accountId });
      return { method: 'GET', ...target, schema };
    });
  }

  /**
   * POST /accounts/{accountId}/kyc-link: a hosted KYC link for an INDIVIDUAL account (a business account gets
   * `BadRequestError`). Valid 72 hours; a new link invalidates the previous one.
   */
  createKycLink(accountId: string, options?: RequestOptions): APIPromise<IndividualKycLink> {
    return this.api.call(
      () => ({
        method: 'POST',
        ...route('/accounts/{accountId}/kyc-link', { accountId }),
        schema: IndividualKycLinkSchema,
        options,
      }),
      'accounts.createKycLink',
    );
  }
}
