/**
 * `payments-service-sdk/otel`: OpenTelemetry spans from the SDK's diagnostics channels. `@opentelemetry/api` is
 * an optional peer dependency, needed only by this entry.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import {
  type Attributes,
  type Context,
  context as contexts,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { CallContext, RequestContext } from '../internal/channels.js';

export type { CallContext, RequestContext } from '../internal/channels.js';

/** The instrumentation scope of the spans. */
export const INSTRUMENTATION_NAME = 'payments-service-sdk';

/** Options of `instrumentPayments`. */
export interface InstrumentPaymentsOptions {
  /** Where the spans go. Default: the global tracer provider (`trace.getTracerProvider()`), even one set later. */
  tracerProvider?: TracerProvider;
}

/** What `instrumentPayments` returns. */
export interface PaymentsInstrumentation {
  /** Unsubscribes: no more spans, and with no other subscriber the SDK stops publishing altogether. */
  disable(): void;
}

type Store = AsyncLocalStorage<Context>;

/**
 * The context manager's own storage when it is the AsyncLocalStorage one (`@opentelemetry/context-async-hooks`,
 * the Node SDK's default), so that the SDK's spans are the active span inside each call and attempt and other
 * instrumentations (undici's fetch spans) nest under them. That storage is not public API: with any other
 * context manager a storage of this module's own still nests the SDK's spans, under the caller's active span.
 */
function managerStorage(): Store | undefined {
  try {
    const manager = (contexts as unknown as { _getContextManager?: () => unknown })._getContextManager?.();
    const storage = (manager as { _asyncLocalStorage?: unknown } | undefined)?._asyncLocalStorage;
    return storage instanceof AsyncLocalStorage ? (storage as Store) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a subscriber's step; a tracer that throws must never fail or crash a payment. */
function guarded<A extends unknown[], R>(fn: (...args: A) => R, fallback: (...args: A) => R) {
  return (...args: A): R => {
    try {
      return fn(...args);
    } catch {
      return fallback(...args);
    }
  };
}

const defined = (attributes: Record<string, string | number | boolean | undefined>): Attributes =>
  Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as Attributes;

function startCall(tracer: Tracer, data: CallContext, parent: Context): Span {
  return tracer.startSpan(
    data.operation,
    {
      kind: SpanKind.CLIENT,
      attributes: defined({ 'payments.operation': data.operation, 'payments.page': data.page }),
    },
    parent,
  );
}

function endCall(span: Span, data: CallContext): void {
  span.setAttributes(
    defined({
      'http.response.status_code': data.status,
      'payments.request_id': data.requestId,
      'payments.payout.attempts': data.attempts,
      'payments.payout.lookups': data.lookups,
      'payments.payout.pages': data.pages,
      'payments.payout.found': data.found,
      'payments.payout.outcome': data.outcome,
      'error.type': data.errorType,
    }),
  );
  if (data.errorType) span.setStatus({ code: SpanStatusCode.ERROR, message: data.errorType });
  span.end();
}

function startRequest(tracer: Tracer, data: RequestContext, parent: Context): Span {
  return tracer.startSpan(
    `${data.method} ${data.urlTemplate}`,
    {
      kind: SpanKind.CLIENT,
      attributes: defined({
        'http.request.method': data.method,
        'server.address': data.serverAddress,
        'server.port': data.serverPort,
        'url.template': data.urlTemplate,
        // The semantic conventions: set on retries only, counting them.
        'http.request.resend_count': data.attempt > 1 ? data.attempt - 1 : undefined,
        'payments.retry.reason': data.retryReason,
        'payments.retry.delay_ms': data.retryDelayMs,
      }),
    },
    parent,
  );
}

function endRequest(span: Span, data: RequestContext): void {
  // HTTP client spans: a 4xx or 5xx is an error, its type the status code; no answer, the error's class.
  const failed =
    data.errorType ?? (data.status !== undefined && data.status >= 400 ? String(data.status) : undefined);
  span.setAttributes(
    defined({
      'http.response.status_code': data.status,
      'payments.request_id': data.requestId,
      'error.type': failed,
    }),
  );
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: failed });
  span.end();
}

/**
 * Turns the SDK's diagnostics channels into OpenTelemetry spans: a client span per SDK call (named after the
 * method, e.g. `payouts.create`; one per page of a list; `payouts.lookup` for each lookup of
 * `lookupBeforeRetry`), and under it a client span per HTTP attempt named `{method} {url.template}` with the
 * HTTP client semantic conventions. Spans nest under the caller's active span. Call once at start-up.
 */
export function instrumentPayments(options: InstrumentPaymentsOptions = {}): PaymentsInstrumentation {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME);
  const shared = managerStorage();
  const storage: Store = shared ?? new AsyncLocalStorage<Context>();
  // The caller's context: the manager's active one, or inside an SDK call, that call's (own storage).
  const active = () => (shared ? contexts.active() : (storage.getStore() ?? contexts.active()));
  const spans = new WeakMap<object, Span>();
  const channels = [
    { channel: tracingChannel(CALL), start: startCall, end: endCall },
    { channel: tracingChannel(REQUEST), start: startRequest, end: endRequest },
  ] as const;
  const undo: (() => void)[] = [];
  for (const { channel, start, end } of channels) {
    const open = guarded(
      (data: object) => {
        const parent = active();
        const span = start(tracer, data as never, parent);
        spans.set(data, span);
        return trace.setSpan(parent, span);
      },
      () => active(),
    );
    const close = guarded(
      (data: object) => {
        const span = spans.get(data);
        if (!span) return;
        spans.delete(data);
        end(span, data as never);
      },
      () => undefined,
    );
    // Only `asyncEnd` is needed (the trace always settles asynchronously); Node subscribes the handlers given.
    const handlers = { asyncEnd: close } as unknown as Parameters<typeof channel.subscribe>[0];
    channel.start.bindStore(storage, open);
    channel.subscribe(handlers);
    undo.push(() => {
      channel.unsubscribe(handlers);
      channel.start.unbindStore(storage);
    });
  }
  let enabled = true;
  return {
    disable() {
      if (!enabled) return;
      enabled = false;
      for (const step of undo) step();
    },
  };
}

const CALL = 'payments-service-sdk:call';
const REQUEST = 'payments-service-sdk:request';
