import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { invalid } from '../core/error.js';
import { ownData } from '../core/own.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import type { Call, Pipeline } from '../internal/pipeline.js';
import type { QueryValue } from '../internal/transport.js';
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

/** The caller's schema (a plain record when none); refuses one that is not a zod schema (a JavaScript caller's mistake). */
function checkSchema<T>(schema: Schema<T> | undefined): Schema<T> {
  if (schema === undefined) return PlainRecordSchema as Schema<unknown> as Schema<T>;
  if (schema === null || typeof schema !== 'object' || !('_zod' in schema)) {
    throw invalid(['schema'], 'must be a zod schema');
  }
  return schema;
}

/** One request whose record the spec does not show, typed by the caller's schema; a bad schema rejects it. */
export function recordCall<T, R = T>(
  api: Pipeline,
  operation: string,
  given: SchemaOptions<T> | undefined,
  build: (schema: Schema<T>) => Omit<Call<R>, 'options'>,
): APIPromise<R> {
  return api.call<R>(() => {
    const { schema, ...options } = ownData(given ?? {});
    return { ...build(checkSchema(schema)), options };
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
  const { schema, ...options } = ownData(given ?? {});
  return api.list<T>(
    {
      path,
      shape: 'flat',
      // Checked when the list is first used, so a bad schema rejects it like bad params do.
      query: () => {
        checkSchema(schema);
        return pagedQuery(PagedPassThroughParams, params);
      },
      schema: schema ?? (PlainRecordSchema as Schema<unknown> as Schema<T>),
      options,
    },
    operation,
  );
}
