import type { LevelLogger } from './logger.js';
import { optionKeys } from './option-keys.js';

/**
 * Structured events for metrics, called once per attempt. They carry the method, the path relative to the base
 * URL and numbers, never a header: the key cannot reach a metrics pipeline through them.
 */

/** An attempt about to be sent. `attempt` counts from 1. */
export interface RequestEvent {
  method: string;
  /** Relative to the base URL, e.g. `/transactions`; without the query. */
  path: string;
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
  /** What failed the previous attempt: `HTTP 503`, `NetworkError`, `TimeoutError`, ... */
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

export const HOOK_KEYS = optionKeys<ClientHooks>()(['onRequest', 'onResponse', 'onRetry']);

export function callHook<E>(
  name: keyof ClientHooks,
  hook: ((event: E) => void) | undefined,
  event: E,
  log: LevelLogger,
): void {
  if (!hook) return;
  try {
    hook(event);
  } catch (error) {
    log.log(
      'warn',
      `the ${name} hook threw (ignored): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** What the transport reports for each attempt; `undefined` when no hook is set (nothing is measured). */
export interface AttemptObserver {
  start(): void;
  answered(response: Response): void;
  failed(error: unknown): void;
}

export function attemptObserver(
  hooks: ClientHooks,
  log: LevelLogger,
  method: string,
  path: string,
): AttemptObserver | undefined {
  if (!hooks.onRequest && !hooks.onResponse && !hooks.onRetry) return undefined;
  let attempt = 0;
  let started = 0;
  let ended: number | undefined;
  let reason = '';
  return {
    start() {
      attempt++;
      const now = Date.now();
      if (attempt > 1) {
        const delayMs = ended === undefined ? 0 : now - ended;
        callHook('onRetry', hooks.onRetry, { method, path, attempt, reason, delayMs }, log);
      }
      callHook('onRequest', hooks.onRequest, { method, path, attempt }, log);
      started = now;
    },
    answered(response) {
      ended = Date.now();
      reason = `HTTP ${response.status}`;
      const requestId = response.headers.get('x-request-id');
      const event = { method, path, attempt, status: response.status, durationMs: ended - started };
      callHook('onResponse', hooks.onResponse, requestId ? { ...event, requestId } : event, log);
    },
    failed(error) {
      ended = Date.now();
      reason = error instanceof Error ? error.name : 'Error';
    },
  };
}
