import {
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import type { CallContext, RequestContext, WaitEvent } from '../internal/channels.js';

/** What `instrumentPayments`' options change in the spans. */
export interface SpanChoices {
  /** `url.full` with the path as sent, or with its template. */
  urlPath: 'sent' | 'template';
  /** The payout's external reference on payout spans. */
  recordReference: boolean;
}

/** The attributes that have a value (a loop: this runs several times a request). */
export function defined(attributes: Record<string, string | number | boolean | undefined>): Attributes {
  const out: Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) out[key] = attributes[key];
  return out;
}

/**
 * An attempt's `error.type`, the same on its span and in `http.client.request.duration`: what it failed with
 * (the class of the call's error, or `TimeoutError`), else the status code of a 4xx or 5xx answer.
 */
export function attemptErrorType(data: RequestContext): string | undefined {
  return (
    data.errorType ?? (data.status !== undefined && data.status >= 400 ? String(data.status) : undefined)
  );
}

/**
 * The conventions' attributes every attempt has from its start (the ones a sampler may read), and `more`:
 * shared by the attempt span and `http.client.request.duration`.
 */
export function attemptAttributes(
  data: RequestContext,
  more: Record<string, string | number | undefined>,
): Attributes {
  return defined({
    'http.request.method': data.method,
    'server.address': data.serverAddress,
    'server.port': data.serverPort,
    'url.template': data.urlTemplate,
    ...more,
  });
}

export function startCall(tracer: Tracer, data: CallContext, parent: Context): Span {
  return tracer.startSpan(
    data.operation,
    {
      kind: SpanKind.CLIENT,
      attributes: defined({ 'payments.operation': data.operation, 'payments.page': data.page }),
    },
    parent,
  );
}

export function endCall(span: Span, data: CallContext, choices: SpanChoices): void {
  span.setAttributes(
    defined({
      'http.response.status_code': data.status,
      'payments.request_id': data.requestId,
      'payments.payout.attempts': data.attempts,
      'payments.payout.lookups': data.lookups,
      'payments.payout.pages': data.pages,
      'payments.payout.found': data.found,
      'payments.payout.outcome': data.outcome,
      'payments.payout.external_reference': choices.recordReference ? data.externalReference : undefined,
      'error.type': data.errorType,
    }),
  );
  // No description: the conventions advise against repeating `error.type` in it, and an error's message may
  // quote a response body.
  if (data.errorType) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

export function startRequest(
  tracer: Tracer,
  data: RequestContext,
  parent: Context,
  choices: SpanChoices,
): Span {
  return tracer.startSpan(
    `${data.method} ${data.urlTemplate}`,
    {
      kind: SpanKind.CLIENT,
      attributes: attemptAttributes(data, {
        'url.full': choices.urlPath === 'template' ? data.templateUrl : data.url,
        // The semantic conventions: set on retries only, counting them.
        'http.request.resend_count': data.attempt > 1 ? data.attempt - 1 : undefined,
        'payments.retry.reason': data.retryReason,
        'payments.retry.delay_ms': data.retryDelayMs,
      }),
    },
    parent,
  );
}

export function endRequest(span: Span, data: RequestContext): void {
  const failed = attemptErrorType(data);
  span.setAttributes(
    defined({
      // Whenever a status line arrived, even if its body was then cut.
      'http.response.status_code': data.status,
      'payments.request_id': data.requestId,
      'error.type': failed,
    }),
  );
  // The conventions: no description where the status code says it; none for the SDK's failures either.
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** A wait of the call's, as a `payments.wait` event at the time it began. */
export function addWait(span: Span, event: WaitEvent): void {
  span.addEvent(
    'payments.wait',
    { 'payments.wait.kind': event.kind, 'payments.wait.duration_ms': event.durationMs },
    event.startTime,
  );
}
