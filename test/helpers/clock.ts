import { vi } from 'vitest';

/** Fake only the clocks the SDK waits on; real setImmediate keeps MSW's and undici's I/O moving. */
export function useFakeClock(now?: Date) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], ...(now ? { now } : {}) });
}

/**
 * Drives a promise to completion under fake timers: lets real I/O run, then jumps to the next timer, until the
 * promise settles. Returns the outcome instead of throwing, so tests can assert on either.
 */
export async function settle<T>(
  promise: PromiseLike<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  // Given up after 10,000 turns and 20 s of real time both: a count alone is machine speed (10,000 turns took
  // 89 ms on a loaded VM, less than a lazy import can take). `hrtime` is a clock no test fakes.
  const started = process.hrtime.bigint();
  const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;
  for (let i = 0; !outcome && (i < 10_000 || elapsedMs() < 20_000); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!outcome && vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
  }
  if (!outcome) throw new Error('promise did not settle');
  return outcome;
}

/** `settle` for a promise expected to reject; returns the error. */
export async function settleError(promise: PromiseLike<unknown>): Promise<unknown> {
  const outcome = await settle(promise);
  if (outcome.ok) throw new Error('expected a rejection');
  return outcome.error;
}

/** `settle` that resolves with the value or rejects with the error. */
export async function drive<T>(promise: PromiseLike<T>): Promise<T> {
  const outcome = await settle(promise);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
