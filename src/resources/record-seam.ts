import * as z from 'zod/mini';
import { RequestValidationError } from '../core/error.js';
import { ownData } from '../core/own.js';
import type { RequestOptions } from '../internal/config.js';
import { pagingParams } from '../rules/paging.js';
import { PassThroughQuery, type Schema } from '../rules/schema.js';

/**
 * Records the spec does not show (tenant accounts, funding instructions, wallets, wallet transactions): kept as
 * the service sent them, or typed by a schema the caller passes. Shared by the accounts and wallet resources.
 */

/** Any record: every field kept. */
export const PlainRecordSchema = z.record(z.string(), z.unknown());

/** Paging plus a pass-through `query`, for lists whose filters the spec does not show. */
export const PagedPassThroughParams = z.strictObject({ ...pagingParams(), query: PassThroughQuery });

/**
 * Per-call options of a method whose records the spec does not show (accounts, funding instructions, wallets,
 * wallet transactions), with the schema that types them: `accounts.list(params, { schema })`.
 */
export interface SchemaOptions<T> extends RequestOptions {
  /**
   * Any zod schema, classic or mini, for one record: each record is validated with it and its output type is
   * the result type. A record that does not match is a `ResponseValidationError` (`AcceptedButUnreadableError`
   * on `accounts.create`, whose account exists all the same).
   */
  schema: Schema<T>;
}

/** The caller's `schema` apart from the options left for the request. */
export function splitSchema<T>(given: (RequestOptions & { schema?: Schema<T> | undefined }) | undefined): {
  schema: Schema<T> | undefined;
  options: RequestOptions | undefined;
} {
  const { schema, ...options } = ownData(given ?? {});
  return { schema, options };
}

/** Refuses, before anything is sent, a `schema` that is not a zod schema (a JavaScript caller's mistake). */
export function checkSchema(schema: unknown): void {
  if (schema !== undefined && (schema === null || typeof schema !== 'object' || !('_zod' in schema))) {
    throw new RequestValidationError([{ path: ['schema'], message: 'must be a zod schema' }]);
  }
}

/** Both, for a single request built inside its promise (a bad schema rejects it). */
export function schemaOption<T>(given: (RequestOptions & { schema?: Schema<T> | undefined }) | undefined) {
  const split = splitSchema(given);
  checkSchema(split.schema);
  return split;
}
