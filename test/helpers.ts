import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { type ClientOptions, PaymentsClient } from '../src/index.js';

/** A key no test output may ever contain. */
export const CANARY_KEY = 'sk_test_CANARY_7f3a9c1e5b';
export const ORIGIN = 'https://payments.test';
export const BASE = `${ORIGIN}/api/v1/external`;
export const ACCOUNT_ID = '3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f';

/** One MSW server per test file; any request without a handler fails the test. */
export function useServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export function makeClient(options: ClientOptions = {}): PaymentsClient {
  return new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, logLevel: 'off', ...options });
}

/** The current success envelope. */
export function ok(data: unknown, status = 200, headers?: Record<string, string>) {
  return HttpResponse.json({ status, message: 'OK', success: true, data }, { status, headers });
}

/** The older boolean success envelope. */
export function legacyOk(data: unknown, status = 200) {
  return HttpResponse.json({ status: true, message: 'OK', data }, { status });
}

/** The spec's error envelope. */
export function fail(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  return HttpResponse.json({ status, message, ...extra }, { status, headers });
}

export function transaction(n: number, extra: Record<string, unknown> = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    transaction_type: 'withdrawal',
    status: 'completed',
    description: `payout ${n}`,
    external_reference: `ref-${n}`,
    fee_amount: 5000,
    source_amount: 100_000,
    destination_amount: 95_000,
    source_currency: 'NGN',
    destination_currency: 'NGN',
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    ...extra,
  };
}

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
  for (let i = 0; i < 10_000 && !outcome; i++) {
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
