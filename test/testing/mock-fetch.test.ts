/**
 * `mock.fetch`: the mock as a plain fetch function, for unit tests with neither MSW nor a socket. Nothing here
 * starts MSW; `globalThis.fetch` is watched to prove no request leaves through it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  NotFoundError,
  PaymentsClient,
  PayoutMayHaveMovedError,
} from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { ngnPayout, rejection } from '../helpers/fixtures.js';

// These tests find NGN payouts by the caller's reference, which the mock keeps only on request (the spec has
// the service assign NGN references; test/mock-fidelity-ngn.test.ts covers that default).
const mock = createPaymentsMock({ assignNgnReferences: false });
const client = new PaymentsClient({
  apiKey: DEFAULT_API_KEY,
  baseUrl: mock.baseUrl,
  fetch: mock.fetch,
  logLevel: 'off',
});
let globalFetch: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  globalFetch = vi.spyOn(globalThis, 'fetch');
});
afterEach(() => {
  expect(globalFetch).not.toHaveBeenCalled();
  mock.reset();
});

describe('mock.fetch', () => {
  it('answers reads, pages and writes in-process, with the state a test can inspect', async () => {
    const banks = await client.banks.list();
    expect(banks.length).toBeGreaterThan(0);
    const page = await client.transactions.list({ pageSize: 5 });
    expect(page.data).toHaveLength(5);
    const payout = await client.payouts.create(ngnPayout('mf-1'));
    expect(payout.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(mock.account().transactions.some((t) => t.row.id === payout.id)).toBe(true);
  });

  it('answers errors in the spec envelope', async () => {
    const error = await rejection(client.banks.lookup({ bankCode: '000014', accountNumber: '0123456789' }));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('a dropped connection rejects as fetch does, so the client sees a connection error', async () => {
    mock.faults.dropAfterCommit('POST /payouts');
    const error = await rejection(client.payouts.create(ngnPayout('mf-2')));
    // create's doubt, caused by the connection error.
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as Error).cause).toBeInstanceOf(APIConnectionError);
    // Committed before the drop, as on a real network.
    expect(mock.account().transactions.filter((t) => t.row.external_reference === 'mf-2')).toHaveLength(1);
  });

  it('an abort rejects with the signal, and a hang ends at the client timeout', async () => {
    mock.faults.hang('GET /banks', 2);
    const controller = new AbortController();
    const pending = client.banks.list({ signal: controller.signal, timeout: 0 });
    controller.abort();
    expect(await rejection(pending)).toBeInstanceOf(APIUserAbortError);
    expect(await rejection(client.banks.list({ timeout: 20, maxRetries: 0 }))).toBeInstanceOf(
      APITimeoutError,
    );
  });

  it('is a standalone function: no `this` needed', async () => {
    const { fetch } = mock;
    const response = await fetch(`${mock.baseUrl}/banks`, { headers: { 'X-API-Key': DEFAULT_API_KEY } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { banks: unknown[] } }).data.banks.length).toBeGreaterThan(0);
  });
});
