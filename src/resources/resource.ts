import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { pickList } from '../internal/envelope.js';
import type { Pipeline } from '../internal/pipeline.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { QueryValue } from '../internal/transport.js';
import type { PortListings } from '../payouts/port.js';
import { parseRequest, type Schema } from '../rules/schema.js';
import type { Banks } from './banks.js';

/**
 * A namespace of endpoints: sends through the pipeline, and reaches other namespaces through the client (the
 * transaction listing, which payout lookups read).
 */
export abstract class APIResource {
  /** @internal Only the client builds its namespaces. */
  constructor(
    protected readonly client: { readonly banks: Pick<Banks, 'list' | 'lookup'> } & PortListings,
    protected readonly api: Pipeline,
  ) {}
}

/**
 * Validates list params of the shape `{ page?, pageSize?, query? }` and flattens them into one query, the
 * caller's pass-through parameters first so the paging the SDK checked wins.
 */
export function pagedQuery(
  schema: Schema<{ query?: Record<string, QueryValue> | undefined }>,
  params: unknown,
): Record<string, QueryValue> {
  const { query, ...paging } = parseRequest(schema, params);
  return { ...query, ...(paging as Record<string, QueryValue>) };
}

/** GET of a whole list the spec keys by name (`{ banks: [...] }`), each row checked by `row`. */
export function keyedList<T>(
  api: Pipeline,
  operation: string,
  path: string,
  key: string,
  row: Schema<T>,
  options: RequestOptions | undefined,
): APIPromise<T[]> {
  return api.call(
    { method: 'GET', path, select: (r) => pickList(r.payload, key), schema: z.array(row), options },
    operation,
  );
}

/**
 * A module a plain call does not need, imported on first use so that an app's bundler puts it in a chunk of its
 * own; the loader returns the same promise every time. A server runtime (Node, Bun, Deno) starts loading it at
 * once, in the background, as when it was a static import: a test that fakes the clock and runs the timers right
 * after a call (README: `lookupBeforeRetry` under `vi.useFakeTimers`) then finds the call's waits already set,
 * not a module still loading.
 */
export function lazyModule<M>(load: () => Promise<M>): () => Promise<M> {
  let loaded: Promise<M> | undefined;
  const get = () => {
    loaded ??= load();
    return loaded;
  };
  const server = (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node;
  if (typeof server === 'string') get().catch(() => undefined);
  return get;
}
