import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { Call, PaginateParams, Pipeline } from '../internal/pipeline.js';
import { REQUEST_OPTION_SHAPE, type RequestOptions } from '../internal/request-options.js';
import type { QueryValue } from '../internal/transport.js';
import { option, optionBag } from '../rules/option-bag.js';
import { page, pageSize } from '../rules/paging.js';
import { PassThroughQuery, recordOf, type Schema } from '../rules/schema.js';
import { pagedQuery } from './resource.js';

/**
 * Records the spec does not show (tenant accounts, funding instructions, wallets, wallet transactions): kept as
 * the service sent them, or typed by a schema the caller passes. Shared by the accounts and wallet resources.
 */

/** Any record: every field kept. */
export const PlainRecordSchema = recordOf(z.unknown());

/** Paging plus a pass-through `query`, for lists whose filters the spec does not show. */
const PagedPassThroughParams = z.strictObject({ page, pageSize: pageSize(), query: PassThroughQuery });

/** Paging of a list whose filters the spec does not show, plus a pass-through for them. */
export interface PassThroughListParams {
  /** 1 or more; default 1. */
  page?: number;
  /** At least 1; default 20. The spec states no ceiling for these lists. */
  pageSize?: number;
  /** Extra query parameters, sent as given. */
  query?: Record<string, QueryValue>;
}

/**
 * Per-call options of a method whose records the spec does not show (accounts, funding instructions, wallets,
 * wallet transactions), with the schema that types them: `accounts.list(params, { schema })`.
 */
export interface SchemaOptions<T> extends RequestOptions {
  /**
   * Any zod schema, classic or mini, for one record: each record is validated with it and its output type is
   * the result type. A record that does not match is a `ResponseValidationError` (`AcceptedButUnreadableError`
   * on `accounts.create`, whose account exists all the same). Without it, records are kept as sent.
   */
  schema?: Schema<T>;
}

const isSchema = (schema: unknown) => schema !== null && typeof schema === 'object' && '_zod' in schema;

/** The request options with the caller's schema (a JavaScript caller's mistake, a schema that is none, refused). */
const schemaOptions = optionBag<SchemaOptions<unknown>>({
  ...REQUEST_OPTION_SHAPE,
  schema: option(isSchema, 'must be a zod schema'),
});

/** One request whose record the spec does not show, typed by the caller's schema; a bad schema rejects it. */
export function recordCall<T, R = T>(
  api: Pipeline,
  operation: string,
  given: SchemaOptions<T> | undefined,
  build: (schema: Schema<T>) => Omit<Call<R>, 'options'>,
): APIPromise<R> {
  return api.call<R>(() => {
    const options = schemaOptions.read(given as SchemaOptions<unknown>, operation) as
      | SchemaOptions<T>
      | undefined;
    return { ...build(options?.schema ?? plainRecord<T>()), options };
  }, operation);
}

/** A flat list of records the spec does not show: paging plus pass-through `query`, rows typed by `schema`. */
export function recordList<T>(
  api: Pipeline,
  operation: string,
  path: string,
  params: PassThroughListParams,
  given: SchemaOptions<T> | undefined,
): PagePromise<T> {
  const list: PaginateParams<T> = {
    path,
    shape: 'flat',
    query: () => pagedQuery(PagedPassThroughParams, params),
  };
  // Read when the list is first used, so bad options reject it like bad params do; the rows' schema with them.
  return api.list<T>(list, operation, false, () => {
    const options = schemaOptions.read(given as SchemaOptions<unknown>, operation) as
      | SchemaOptions<T>
      | undefined;
    list.schema = options?.schema ?? plainRecord<T>();
    return options;
  });
}

const plainRecord = <T>() => PlainRecordSchema as Schema<unknown> as Schema<T>;
