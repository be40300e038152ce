import { statusAndId } from '../core/api-promise.js';
import { messageOf } from '../core/values.js';
import { aFunction, optionBag } from '../rules/option-bag.js';
import {
  announceWait,
  listening,
  type RequestContext,
  templateOf,
  trace,
  type WaitKind,
} from './channels.js';
import type { ResolvedConfig } from './config.js';
import { waitAfter } from './retry.js';

/**
 * Structured events for metrics, called once per attempt. They carry the method, the path relative to the base
 * URL and numbers, never a header: the key cannot reach a metrics pipeline through them.
 */

/** An attempt about to be sent. `attempt` counts from 1. */
export interface RequestEvent {
  method: string;
  /** Relative to the base URL, e.g. `/transactions`; without the query. */
  path: string;
  /** The path with its ids as names, e.g. `/payer-names/{payerNameId}`: a label that keeps metrics' cardinality low. */
  urlTemplate: string;
  attempt: number;
}

/** An attempt answered (any status), its body read. */
export interface ResponseEvent extends RequestEvent {
  status: number;
  /** From sending the attempt to having its body. */
  durationMs: number;
  /** The `x-request-id` response header, when sent: quote it to support. */
  requestId?: string;
}

/** An attempt about to be sent again, after `delayMs` of waiting. */
export interface RetryEvent extends RequestEvent {
  /**
   * What failed the previous attempt: `HTTP 503` for an answer, else what the attempt failed with:
   * `TimeoutError`, `APIConnectionError` (no answer, or its body cut), `ResponseTooLargeError`.
   */
  reason: string;
  delayMs: number;
}

/** Client option `hooks`. A hook that throws is logged at `warn` and the call goes on. */
export interface ClientHooks {
  /** Before each attempt is sent. */
  onRequest?: (event: RequestEvent) => void;
  /** When an attempt is answered (any status) and its body read. */
  onResponse?: (event: ResponseEvent) => void;
  /** Before an attempt is sent again, with what failed the previous one and how long was waited. */
  onRetry?: (event: RetryEvent) => void;
}

/** The client's `hooks`: each one a function, checked when the client is made rather than at its first call. */
export const hookOptions = optionBag<ClientHooks>({
  onRequest: aFunction,
  onResponse: aFunction,
  onRetry: aFunction,
});

/** An attempt wrapped by the observer: `heard` is called with the status line, before the body is read. */
export type Attempt = (heard: (response: Response) => void) => Promise<Response>;

/**
 * Wraps each attempt of one request; `undefined` when no hook is set and no tracer listens (nothing is
 * measured). The one source of attempt events: the hooks, the request channel and the waits between attempts
 * get the same numbers. `failure` names what an attempt failed with (the transport decides it, as it decides
 * the call's error); `urls` gives the request's `url.full` forms, made only when a tracer listens.
 */
export function attemptObserver(
  config: Pick<ResolvedConfig, 'hooks' | 'logger' | 'baseUrl'>,
  request: { method: string; path: string; template?: string | undefined },
  urls: (template: string) => { url: string; templateUrl: string },
): ((attempt: Attempt, failure: (error: unknown) => string) => Promise<Response>) | undefined {
  const { hooks, logger: log } = config;
  const channel = listening('request');
  if (!channel && !hooks.onRequest && !hooks.onResponse && !hooks.onRetry) return undefined;
  const { method, path } = request;
  const urlTemplate = request.template ?? templateOf(path);
  const { hostname: serverAddress, port, protocol } = new URL(config.baseUrl);
  const serverPort = Number(port) || (protocol === 'http:' ? 80 : 443);
  const traced = channel && { method, urlTemplate, serverAddress, serverPort, ...urls(urlTemplate) };
  const call = <K extends keyof ClientHooks>(name: K, event: Parameters<NonNullable<ClientHooks[K]>>[0]) => {
    try {
      hooks[name]?.(event as never);
    } catch (error) {
      log.log('warn', `the ${name} hook threw (ignored): ${messageOf(error)}`);
    }
  };
  let attempt = 0;
  let ended = 0;
  let reason = '';
  let wait: WaitKind = 'backoff';
  return (send, failure) => {
    const started = Date.now();
    const event = { method, path, urlTemplate, attempt: ++attempt };
    const context = { ...traced, attempt } as RequestContext;
    const retry = attempt > 1 && { reason, delayMs: started - ended };
    if (retry) {
      // Set before the start event, so a span opened there carries them; the wait is the call's, so it is
      // published before the attempt's span opens.
      Object.assign(context, { retryReason: retry.reason, retryDelayMs: retry.delayMs });
      announceWait(wait, retry.delayMs, ended);
    }
    return trace(channel, context, async () => {
      if (retry) call('onRetry', { ...event, ...retry });
      call('onRequest', event);
      try {
        const response = await send((head) => Object.assign(context, statusAndId(head)));
        ended = Date.now();
        reason = `HTTP ${response.status}`;
        wait = waitAfter(response.status, response.headers);
        const answered = { ...statusAndId(response), durationMs: ended - started };
        Object.assign(context, answered);
        call('onResponse', { ...event, ...answered });
        return response;
      } catch (error) {
        ended = Date.now();
        reason = failure(error);
        wait = 'backoff';
        Object.assign(context, { errorType: reason, durationMs: ended - started });
        throw error;
      }
    });
  };
}
