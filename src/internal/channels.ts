/**
 * The SDK's work published on `node:diagnostics_channel` tracing channels, for tracers (`payments-service-sdk/otel`,
 * dd-trace, your own). Contexts carry names, numbers and the request id, never the key, a header value or a body.
 * Where the module is missing (workerd without `nodejs_compat`, edge runtimes) or nobody subscribes, nothing is
 * built and nothing is published: the cost is one property read.
 */

/** Channel names: `tracingChannel(name)` publishes on `tracing:${name}:start`, `:end`, `:asyncStart`, ... */
export const REQUEST_CHANNEL = 'payments-service-sdk:request';
export const CALL_CHANNEL = 'payments-service-sdk:call';
/** A plain channel (`channel(name)`, not a tracing one): one message per wait, a `WaitEvent`. */
export const WAIT_CHANNEL = 'payments-service-sdk:wait';

/** The context of one HTTP attempt on `payments-service-sdk:request`. */
export interface RequestContext {
  /** `GET`, `POST`, ... */
  method: string;
  /** The path relative to the base URL with its ids as names: `/payer-names/{payerNameId}`. */
  urlTemplate: string;
  /** The base URL's host and port. */
  serverAddress: string;
  serverPort: number;
  /**
   * The URL as sent, each query value replaced by `REDACTED` (the keys kept) and the API key, should a path
   * hold it, by `[redacted]`: `https://host/api/v1/external/transactions?page=REDACTED`.
   */
  url: string;
  /** `url` with `urlTemplate` in place of the path: `https://host/api/v1/external/payer-names/{payerNameId}`. */
  templateUrl: string;
  /** Counts from 1. */
  attempt: number;
  /** From an attempt after the first: what failed the previous one (`HTTP 503`, `TimeoutError`) and the wait. */
  retryReason?: string;
  retryDelayMs?: number;
  /** Once the status line arrived, even if the body then failed. */
  status?: number;
  /** From sending the attempt to its end: its body read, or its failure. */
  durationMs?: number;
  /** The `x-request-id` response header, when sent. */
  requestId?: string;
  /**
   * What the attempt failed with: the class of the error the call throws for it (`APIConnectionError`,
   * `APIUserAbortError`, `AcceptedButUnreadableError`, `ResponseTooLargeError`), or `TimeoutError` when its
   * timeout ended it. Not set for an answer of any status.
   */
  errorType?: string;
}

/** The context of one SDK call on `payments-service-sdk:call`: a method, a page of a list, a payout lookup. */
export interface CallContext {
  /** The SDK method: `payouts.create`, `transactions.list`, `lookupBeforeRetry`, `request`, ... */
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
  /**
   * `lookupBeforeRetry`: `created`, `recovered`, `not_sent`, `unknown`, or `refused` (the first POST answered
   * with a refusal, rethrown). `outbox.settle`: the state the payout ended in.
   */
  outcome?: string;
  /**
   * Payout calls (`payouts.create` when given one, `lookupBeforeRetry`, `payouts.lookup`, `findByReference`): the
   * payout's external reference. `payments-service-sdk/otel` records it only with `recordReference: true`.
   */
  externalReference?: string;
}

/** What a wait is for: the listing to show a payout, a server's `Retry-After`, or the retry policy's backoff. */
export type WaitKind = 'visibility' | 'retry_after' | 'backoff';

/** One wait of the SDK's, on `payments-service-sdk:wait`, published in the context of the call that waits. */
export interface WaitEvent {
  kind: WaitKind;
  durationMs: number;
  /** When the wait began (epoch milliseconds): a backoff is published once it is over, with the retry. */
  startTime: number;
}

type Channel = { publish(message: unknown): void; runStores<T>(message: unknown, fn: () => T): T };
type TracingChannel = { hasSubscribers: boolean } & Record<
  'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error',
  Channel
>;

type PlainChannel = { publish(message: unknown): void; hasSubscribers: boolean };

let channels: { request?: TracingChannel; call?: TracingChannel; wait?: PlainChannel } | undefined;

/**
 * The channel, only when someone listens. Loaded once, without a static import: bundlers and edge runtimes
 * would fail on one.
 */
export function listening(name: 'request' | 'call'): TracingChannel | undefined;
export function listening(name: 'wait'): PlainChannel | undefined;
export function listening(name: 'request' | 'call' | 'wait'): TracingChannel | PlainChannel | undefined {
  if (!channels) {
    channels = {};
    try {
      const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const dc = process?.getBuiltinModule?.('node:diagnostics_channel') as
        | {
            tracingChannel?: (name: string) => TracingChannel;
            channel: (name: string) => PlainChannel;
          }
        | undefined;
      if (dc?.tracingChannel) {
        const [request, call] = [REQUEST_CHANNEL, CALL_CHANNEL].map((name) => dc.tracingChannel!(name));
        channels = { request, call, wait: dc.channel(WAIT_CHANNEL) };
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
        // The work may have named its failure already (an attempt's `TimeoutError`); else the error's class.
        context.errorType ??= errorType(error);
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

/** Publishes a wait on `payments-service-sdk:wait`, when someone listens; a wait of 0 is none. */
export function announceWait(kind: WaitKind, durationMs: number, startTime = Date.now()): void {
  if (durationMs > 0) listening('wait')?.publish({ kind, durationMs, startTime } satisfies WaitEvent);
}

/** Adds one to a count on a call's context, if it is traced. */
export function count(context: CallContext | undefined, field: 'lookups' | 'pages'): void {
  if (context) context[field] = (context[field] ?? 0) + 1;
}
