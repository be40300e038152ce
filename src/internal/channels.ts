/**
 * The SDK's work published on `node:diagnostics_channel` tracing channels, for tracers (`payments-service-sdk/otel`,
 * dd-trace, your own). Contexts carry names, numbers and the request id, never the key, a header value or a body.
 * Where the module is missing (workerd without `nodejs_compat`, edge runtimes) or nobody subscribes, nothing is
 * built and nothing is published: the cost is one property read.
 */

/** Channel names: `tracingChannel(name)` publishes on `tracing:${name}:start`, `:end`, `:asyncStart`, ... */
export const REQUEST_CHANNEL = 'payments-service-sdk:request';
export const CALL_CHANNEL = 'payments-service-sdk:call';

/** The context of one HTTP attempt on `payments-service-sdk:request`. */
export interface RequestContext {
  /** `GET`, `POST`, ... */
  method: string;
  /** The path relative to the base URL with its ids as names: `/payer-names/{payerNameId}`. */
  urlTemplate: string;
  /** The base URL's host and port. */
  serverAddress: string;
  serverPort: number;
  /** Counts from 1. */
  attempt: number;
  /** From an attempt after the first: what failed the previous one (`HTTP 503`, `TimeoutError`) and the wait. */
  retryReason?: string;
  retryDelayMs?: number;
  /** Once answered (any status), its body read. */
  status?: number;
  durationMs?: number;
  /** The `x-request-id` response header, when sent. */
  requestId?: string;
  /** The class name of what the attempt threw (`TimeoutError`, `AcceptedButUnreadableError`, ...). */
  errorType?: string;
}

/** The context of one SDK call on `payments-service-sdk:call`: a method, a page of a list, a payout lookup. */
export interface CallContext {
  /** The SDK method: `payouts.create`, `transactions.list`, `payouts.lookupBeforeRetry`, `request`, ... */
  operation: string;
  /** Lists: the page this call read. */
  page?: number;
  /** The final response's status and request id (any status: a 4xx sets `errorType` too); its HTTP method
   * and URL template are on its attempts' contexts. */
  status?: number;
  requestId?: string;
  /** The class name of what the call threw (`RateLimitError`, `PayoutOutcomeUnknownError`, ...). */
  errorType?: string;
  /** `lookupBeforeRetry`: POST attempts made and lookups run. */
  attempts?: number;
  lookups?: number;
  /** Listing pages read by a payout search (`lookupBeforeRetry`, `findByReference`, `payouts.lookup`). */
  pages?: number;
  /** `findByReference`, `payouts.lookup`: whether the payout was found. */
  found?: boolean;
  /** `lookupBeforeRetry`: `created`, `recovered`, `not_sent` or `unknown`. */
  outcome?: string;
}

type Channel = { publish(message: unknown): void; runStores<T>(message: unknown, fn: () => T): T };
type TracingChannel = { hasSubscribers: boolean } & Record<
  'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error',
  Channel
>;

let channels: { request?: TracingChannel; call?: TracingChannel } | undefined;

/**
 * The channel, only when someone listens. Loaded once, without a static import: bundlers and edge runtimes
 * would fail on one.
 */
export function listening(name: 'request' | 'call'): TracingChannel | undefined {
  if (!channels) {
    channels = {};
    try {
      const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const dc = process?.getBuiltinModule?.('node:diagnostics_channel') as
        | { tracingChannel?: (name: string) => TracingChannel }
        | undefined;
      if (dc?.tracingChannel) {
        channels = { request: dc.tracingChannel(REQUEST_CHANNEL), call: dc.tracingChannel(CALL_CHANNEL) };
      }
    } catch {
      // A runtime that refuses the module has no channels.
    }
  }
  const channel = channels[name];
  return channel?.hasSubscribers ? channel : undefined;
}

/** A class name for `errorType`: never the message, which may quote a body. */
export function errorType(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/**
 * Runs `fn` (async: it never throws synchronously) as one traced operation, or plainly without a channel:
 * `start` (its stores entered, so a subscriber's span is the active one inside), `end` when `fn` returned, then
 * `error` if it failed, `asyncStart` and `asyncEnd` when it settled. Unlike `tracePromise` the context never
 * receives the result or the error object, which may hold a body; only `errorType`.
 */
export function trace<C extends { errorType?: string }, T>(
  channel: TracingChannel | undefined,
  context: C,
  fn: () => Promise<T>,
): Promise<T> {
  if (!channel) return fn();
  return channel.start.runStores(context, () => {
    const promise = fn();
    channel.end.publish(context);
    return promise
      .catch((error: unknown) => {
        context.errorType = errorType(error);
        channel.error.publish(context);
        throw error;
      })
      .finally(() => {
        channel.asyncStart.publish(context);
        channel.asyncEnd.publish(context);
      });
  });
}

/**
 * Traces one SDK call on `payments-service-sdk:call`; `fn` (async, so that nothing throws synchronously) gets
 * the context to fill in (status, counts, outcome), or `undefined` when nobody listens. The outbox traces
 * `settle` with it: `traceCall('outbox.settle', () => settle(reference))`.
 */
export function traceCall<T>(
  operation: string,
  fn: (context: CallContext | undefined) => Promise<T>,
  fields?: Omit<CallContext, 'operation'>,
): Promise<T> {
  const channel = listening('call');
  if (!channel) return fn(undefined);
  const context: CallContext = { operation, ...fields };
  return trace(channel, context, () => fn(context));
}

/**
 * A template for a path no resource named (`client.request`): a segment holding a digit or over 40 characters
 * (a uuid, a number, a reference) becomes `{id}`. The API's own path words hold neither.
 */
export function templateOf(path: string): string {
  return path
    .split('/')
    .map((segment) => (/\d/.test(segment) || segment.length > 40 ? '{id}' : segment))
    .join('/');
}

/** Adds one to a count on a call's context, if it is traced. */
export function count(context: CallContext | undefined, field: 'lookups' | 'pages'): void {
  if (context) context[field] = (context[field] ?? 0) + 1;
}
