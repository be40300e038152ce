import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { uuidSegment } from '../internal/path.js';
import {
  checkSchema,
  PagedPassThroughParams,
  PlainRecordSchema,
  type SchemaOptions,
  schemaOption,
  splitSchema,
} from '../internal/record-seam.js';
import { looseObject, openEnum, pagedQuery, parseRequest, type Schema } from '../internal/schema.js';
import type { QueryValue } from '../internal/transport.js';
import { APIResource } from './resource.js';

/**
 * A tenant account. The spec does not show its fields (not even `id`): everything the service sends is kept.
 * Pass `{ schema }` to type it.
 */
export type Account = Record<string, unknown>;
const AccountSchema = PlainRecordSchema;

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
export interface AccountListParams {
  /** 1 or more; default 1. */
  page?: number;
  /** At least 1; default 20. The spec states no ceiling for this list. */
  pageSize?: number;
  /** Parameters the spec does not show, sent as given. */
  query?: Record<string, QueryValue>;
}

/**
 * The body of POST /accounts. The spec names the operation but not its fields, so the object is sent as
 * given; use the field names from your onboarding documentation.
 */
export type AccountCreateParams = Record<string, unknown>;

/** Accounts of a white-label tenancy. */
export class Accounts extends APIResource {
  /**
   * POST /accounts: onboards an account into the tenancy. Not retried: a repeat could create two. With
   * `{ schema }` the record is typed and checked by it.
   */
  create<T>(body: AccountCreateParams, options: SchemaOptions<T>): APIPromise<T>;
  /** POST /accounts: the record as the service sent it. */
  create(body: AccountCreateParams, options?: RequestOptions): APIPromise<Account>;
  create<T>(
    body: AccountCreateParams,
    given?: RequestOptions & { schema?: Schema<T> },
  ): APIPromise<T | Account> {
    return this.api.call<T | Account>(async () => {
      const { schema, options } = schemaOption(given);
      const checked = parseRequest(PlainRecordSchema, body, ['body']);
      return {
        method: 'POST',
        path: '/accounts',
        body: checked,
        schema: schema ?? AccountSchema,
        options,
      };
    });
  }

  /**
   * GET /accounts: the tenancy's accounts, flat pagination with `hasMore`. With `{ schema }` each row is typed
   * and checked by it, e.g. `z.looseObject({ id: z.uuid() })` to hand `a.id` to `client.forAccount`.
   */
  list<T>(params: AccountListParams | undefined, options: SchemaOptions<T>): PagePromise<T>;
  /** GET /accounts: rows as the service sent them. */
  list(params?: AccountListParams, options?: RequestOptions): PagePromise<Account>;
  list<T>(
    params: AccountListParams = {},
    given?: RequestOptions & { schema?: Schema<T> },
  ): PagePromise<T | Account> {
    const { schema, options } = splitSchema(given);
    return this.api.list<T | Account>({
      path: '/accounts',
      shape: 'flat',
      query: () => {
        checkSchema(schema);
        return pagedQuery(PagedPassThroughParams, params);
      },
      schema: schema ?? AccountSchema,
      options,
    });
  }

  /** GET /accounts/{accountId}/funding-instructions, typed and checked by `{ schema }` when given. */
  fundingInstructions<T>(accountId: string, options: SchemaOptions<T>): APIPromise<T>;
  /** GET /accounts/{accountId}/funding-instructions: the record as the service sent it. */
  fundingInstructions(accountId: string, options?: RequestOptions): APIPromise<FundingInstructions>;
  fundingInstructions<T>(
    accountId: string,
    given?: RequestOptions & { schema?: Schema<T> },
  ): APIPromise<T | FundingInstructions> {
    return this.api.call<T | FundingInstructions>(async () => {
      const { schema, options } = schemaOption(given);
      return {
        method: 'GET',
        path: `/accounts/${uuidSegment('accountId', accountId)}/funding-instructions`,
        schema: schema ?? AccountSchema,
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
