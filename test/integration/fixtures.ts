import { vi } from 'vitest';

/** Fixtures and clock helpers with no MSW import, so the loopback tests can use them too. */

/** Rejection of `promise`, for asserting on the error object itself. */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

/** A payout beneficiary the mock's name enquiry resolves (`KNOWN_ACCOUNT_NUMBER` at GTBank). */
export const BENEFICIARY = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: '0123456788',
  bankName: 'Guaranty Trust Bank',
  bankCode: '000013',
  email: 'ada@example.com',
};

/** Fake only the clocks the SDK waits on; real setImmediate keeps MSW's and undici's I/O moving. */
export function useFakeClock(now?: Date): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], ...(now ? { now } : {}) });
}

/**
 * Drives a promise to completion under fake timers: lets real I/O run, then jumps to the next timer, until the
 * promise settles. Resolves with the value or rejects with the error.
 */
export async function settle<T>(promise: PromiseLike<T>): Promise<T> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  for (let i = 0; i < 10_000 && !outcome; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!outcome && vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
  }
  if (!outcome) throw new Error('promise did not settle');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
