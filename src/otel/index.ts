/**
 * `payments-service-sdk/otel`: OpenTelemetry spans and metrics from the SDK's diagnostics channels.
 * `@opentelemetry/api` is an optional peer dependency, needed only by this entry.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { channel as plainChannel, tracingChannel } from 'node:diagnostics_channel';
import {
  type Context,
  context as contexts,
  type MeterProvider,
  metrics,
  type Span,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { optionKeys, unknownOptionMessage, unknownOptions } from '../core/option-keys.js';
import {
  CALL_CHANNEL,
  type CallContext,
  REQUEST_CHANNEL,
  type RequestContext,
  WAIT_CHANNEL,
  type WaitEvent,
} from '../internal/channels.js';
import { VERSION } from '../version.js';
import { type CountedOutbox, paymentsMetrics } from './metrics.js';
import { addWait, endCall, endRequest, type SpanChoices, startCall, startRequest } from './spans.js';

export type { CallContext, RequestContext, WaitEvent, WaitKind } from '../internal/channels.js';
export { type CountedOutbox, DURATION_BUCKETS } from './metrics.js';

/** The instrumentation scope of the spans and metrics; its version is the package's. */
export const INSTRUMENTATION_NAME = 'payments-service-sdk';

/** Options of `instrumentPayments`. */
export interface InstrumentPaymentsOptions {
  /** Where the spans go. Default: the global tracer provider (`trace.getTracerProvider()`), even one set later. */
  tracerProvider?: TracerProvider;
  /**
   * Where the metrics go. Default: the global meter provider as registered when `instrumentPayments` is called
   * (the OpenTelemetry API has no stand-in that would follow one registered later).
   */
  meterProvider?: MeterProvider;
  /**
   * The path in `url.full`: `'sent'` (default), with its ids, as the request went out; or `'template'`, with
   * the ids as names (`/payer-names/{payerNameId}`). Query values are `REDACTED` either way.
   */
  urlPath?: 'sent' | 'template';
  /**
   * Adds `payments.payout.external_reference` to payout spans, so that a trace can be found by invoice. Off by
   * default: a reference is the merchant's own identifier, often an invoice or customer number, and traces
   * usually travel further and are kept by more hands than the payment ledger.
   */
  recordReference?: boolean;
  /** Outboxes (or anything with `count()`) to report as the `payments.outbox.payouts` gauge, by state. */
  outboxes?: readonly CountedOutbox[];
}

const INSTRUMENT_OPTION_KEYS = optionKeys<InstrumentPaymentsOptions>()([
  'tracerProvider meterProvider urlPath recordReference outboxes',
]);

/** What `instrumentPayments` returns. */
export interface PaymentsInstrumentation {
  /** Unsubscribes: no more spans or metrics, and with no other subscriber the SDK stops publishing altogether. */
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

/** Runs a subscriber's step; a tracer or meter that throws must never fail or crash a payment. */
function guarded<A extends unknown[], R>(fn: (...args: A) => R, fallback: (...args: A) => R) {
  return (...args: A): R => {
    try {
      return fn(...args);
    } catch {
      return fallback(...args);
    }
  };
}

/**
 * One instrumentation per process, whichever copy of this module (ESM or CommonJS) made it: the channels are
 * the process's, and two instrumentations binding the same context storage would silently replace each other.
 */
const ACTIVE = Symbol.for('payments-service-sdk/otel instrumentation');

/**
 * Turns the SDK's diagnostics channels into OpenTelemetry spans and metrics: a client span per SDK call (named
 * after the method, e.g. `payouts.create`; one per page of a list; `payouts.lookup` for each lookup of
 * `lookupBeforeRetry`) with its waits as `payments.wait` events, and under it a client span per HTTP attempt
 * named `{method} {url.template}` with the HTTP client semantic conventions; `http.client.request.duration`,
 * `payments.payouts` by outcome and, given outboxes, `payments.outbox.payouts` by state. Spans nest under the
 * caller's active span. Call once at start-up: a second call while one is active throws.
 */
export function instrumentPayments(options: InstrumentPaymentsOptions = {}): PaymentsInstrumentation {
  const registry = globalThis as { [ACTIVE]?: boolean };
  if (registry[ACTIVE]) {
    throw new Error(
      'payments-service-sdk/otel: instrumentPayments() is already active in this process. Call disable() on ' +
        'the one you have before instrumenting again; to send spans to several places, give one tracer ' +
        'provider several span processors.',
    );
  }
  // A TypeError, as for a bad urlPath: the SDK's error classes would double this entry's size.
  const unknown = unknownOptions(options, INSTRUMENT_OPTION_KEYS);
  if (unknown.length) throw new TypeError(unknownOptionMessage('instrumentPayments', unknown));
  const urlPath = options.urlPath ?? 'sent';
  if (urlPath !== 'sent' && urlPath !== 'template') {
    throw new TypeError(`instrumentPayments: urlPath must be 'sent' or 'template', got ${String(urlPath)}`);
  }
  const choices: SpanChoices = { urlPath, recordReference: options.recordReference === true };
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
    INSTRUMENTATION_NAME,
    VERSION,
  );
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME, VERSION);
  const recorded = paymentsMetrics(meter, options.outboxes ?? []);
  const shared = managerStorage();
  const storage: Store = shared ?? new AsyncLocalStorage<Context>();
  // The caller's context: the manager's active one, or inside an SDK call, that call's (own storage).
  const active = () => (shared ? contexts.active() : (storage.getStore() ?? contexts.active()));
  const spans = new WeakMap<object, Span>();
  // The spans this instrumentation has open: a wait is recorded on one of them, never on a merchant's span.
  const open = new WeakSet<Span>();
  const channels = [
    {
      channel: tracingChannel(CALL_CHANNEL),
      start: (parent: Context, data: CallContext) => startCall(tracer, data, parent),
      end: (span: Span | undefined, data: CallContext) => span && endCall(span, data, choices),
      record: (data: CallContext) => recorded.call(data),
    },
    {
      channel: tracingChannel(REQUEST_CHANNEL),
      start: (parent: Context, data: RequestContext) => startRequest(tracer, data, parent, choices),
      end: (span: Span | undefined, data: RequestContext) => span && endRequest(span, data),
      record: (data: RequestContext) => recorded.attempt(data),
    },
  ] as const;
  const undo: (() => void)[] = [() => recorded.disable()];
  for (const { channel, start, end, record } of channels) {
    const begin = guarded(
      (data: object) => {
        const parent = active();
        const span = start(parent, data as never);
        spans.set(data, span);
        open.add(span);
        return trace.setSpan(parent, span);
      },
      () => active(),
    );
    const close = guarded(
      (data: object) => {
        const span = spans.get(data);
        spans.delete(data);
        if (span) open.delete(span);
        end(span, data as never);
      },
      () => undefined,
    );
    // Apart from the span: a tracer that throws must not cost the metrics, nor a meter the spans.
    const measure = guarded(record as (data: object) => void, () => undefined);
    // Only `asyncEnd` is needed (the trace always settles asynchronously); Node subscribes the handlers given.
    const handlers = {
      asyncEnd: (data: object) => {
        close(data);
        measure(data);
      },
    } as unknown as Parameters<typeof channel.subscribe>[0];
    channel.start.bindStore(storage, begin);
    channel.subscribe(handlers);
    undo.push(() => {
      channel.unsubscribe(handlers);
      channel.start.unbindStore(storage);
    });
  }
  const waits = plainChannel(WAIT_CHANNEL);
  const onWait = guarded(
    (message: unknown) => {
      const span = trace.getSpan(active());
      if (span && open.has(span)) addWait(span, message as WaitEvent);
    },
    () => undefined,
  );
  waits.subscribe(onWait);
  undo.push(() => waits.unsubscribe(onWait));
  registry[ACTIVE] = true;
  let enabled = true;
  return {
    disable() {
      if (!enabled) return;
      enabled = false;
      for (const step of undo) step();
      registry[ACTIVE] = false;
    },
  };
}
