import { APIUserAbortError } from '../core/error.js';
import { announceWait, type WaitKind } from './channels.js';

/**
 * Waits `ms`, or rejects with `APIUserAbortError` as soon as `signal` fires. A wait given its `kind` is
 * published on the wait channel, so a tracer shows it on the span of the call that waits.
 */
export function sleep(ms: number, signal?: AbortSignal, kind?: WaitKind): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError());
    if (kind) announceWait(kind, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
