import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { uuidSegment } from '../internal/path.js';
import { openEnum, PassThroughQuery, pagedQuery, pagingParams, parseRequest } from '../internal/schema.js';
import type { QueryValue } from '../internal/transport.js';
import { APIResource } from './resource.js';

/** A tenant account. The spec does not show its fields: everything the service sends is kept. */
export type Account = Record<string, unknown>;
const AccountSchema = z.record(z.string(), z.unknown());

/** Funding instructions of an account. The spec does not show their fields. */
export type FundingInstructions = Record<string, unknown>;

/** A hosted identity-verification link for an individual account. */
export const IndividualKycLinkSchema = z.looseObject({
  token: z.string(),
  url: z.string(),
  status: openEnum(['active', 'completed', 'rejected']),
  /** 72 hours after creation. */
  expiresAt: z.string(),
  accountId: z.string(),
});
/** A hosted identity-verification (KYC) link. */
export type IndividualKycLink = z.infer<typeof IndividualKycLinkSchema>;

const AccountListParamsSchema = z.strictObject({ ...pagingParams(100), query: PassThroughQuery });

/** Paging of GET /accounts, plus a pass-through for parameters the spec does not show. */
export interface AccountListParams {
  page?: number;
  pageSize?: number;
  query?: Record<string, QueryValue>;
}

/**
 * The body of POST /accounts. The spec names the operation but not its fields, so the object is sent as
 * given; use the field names from your onboarding documentation.
 */
export type AccountCreateParams = Record<string, unknown>;

/** Accounts of a white-label tenancy. */
export class Accounts extends APIResource {
  /** POST /accounts: onboards an account into the tenancy. Not retried: a repeat could create two. */
  create(body: AccountCreateParams, options?: RequestOptions): APIPromise<Account> {
    return this.api.call(async () => {
      const checked = parseRequest(z.record(z.string(), z.unknown()), body, ['body']);
      return {
        method: 'POST',
        path: '/accounts',
        body: checked,
        schema: AccountSchema,
        options,
      };
    });
  }

  /** GET /accounts: the tenancy's accounts, flat pagination with `hasMore`. */
  list(params: AccountListParams = {}, options?: RequestOptions): PagePromise<Account> {
    return this.api.list({
      path: '/accounts',
      shape: 'flat',
      query: () => pagedQuery(AccountListParamsSchema, params),
      schema: AccountSchema,
      options,
    });
  }

  /** GET /accounts/{accountId}/funding-instructions. */
  fundingInstructions(accountId: string, options?: RequestOptions): APIPromise<FundingInstructions> {
    return this.api.call(async () => {
      return {
        method: 'GET',
        path: `/accounts/${uuidSegment('accountId', accountId)}/funding-instructions`,
        schema: AccountSchema,
        options,
      };
    });
  }

  /**
   * POST /accounts/{accountId}/kyc-link: a hosted KYC link for an INDIVIDUAL account (a business account gets
   * `BadRequestError`). Valid 72 hours; a new link invalidates the previous one.
   */
  createKycLink(accountId: string, options?: RequestOptions): APIPromise<IndividualKycLink> {
    return this.api.call(async () => {
      return {
        method: 'POST',
        path: `/accounts/${uuidSegment('accountId', accountId)}/kyc-link`,
        schema: IndividualKycLinkSchema,
        options,
      };
    });
  }
}
