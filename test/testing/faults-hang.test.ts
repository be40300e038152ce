import { afterEach, describe, expect, it } from 'vitest';
import { APITimeoutError, APIUserAbortError, PaymentsClient } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../integration/fixtures.js';
import { KEY, useMocks } from './support.js';

// Taken before MSW patches fetch, so the loopback client below talks to the real socket.
const realFetch = globalThis.fetch;
const { main } = useMocks({ main: {} });

// The payout beneficiary the mock's name enquiry resolves, shared with the integration tests.
const beneficiary = BENEFICIARY;
const payout = (externalReference: string) => ({
  amount: 1000,
  currency: 'NGN',
  beneficiary,
  externalReference,
});
const stored = (mock: typeof main, ref: string) =>
  mock.account().transactions.filter((t) => t.row.external_reference === ref).length;
/** Calls expected to be answered get a generous timeout, so a loaded machine cannot fail them. */
const ANSWERED = { timeout: 10_000 };
const clientOf = (baseUrl: string, fetch?: typeof globalThis.fetch) =>
  new PaymentsClient({ apiKey: KEY, baseUrl, logLevel: 'off', timeout: 50, maxRetries: 0, fetch });

describe('faults.hang and faults.hangAfterCommit (MSW)', () => {
  it('hang: the request is never answered nor processed; the client times out', async () => {
    main.faults.hang('POST /payouts');
    const client = clientOf(main.baseUrl);
    expect(await rejection(client.payouts.create(payout('h-1')))).toBeInstanceOf(APITimeoutError);
    expect(stored(main, 'h-1')).toBe(0);
    // Consumed: the next request is answered normally.
    await expect(client.payouts.create(payout('h-1'), ANSWERED)).resolves.toMatchObject({
      external_reference: 'h-1',
    });
    expect(stored(main, 'h-1')).toBe(1);
  });

  it('hangAfterCommit: the payout is stored, the answer never comes', async () => {
    main.faults.hangAfterCommit('POST /payouts');
    const client = clientOf(main.baseUrl);
    expect(await rejection(client.payouts.create(payout('h-2')))).toBeInstanceOf(APITimeoutError);
    expect(stored(main, 'h-2')).toBe(1);
  });

  it('matches like the other faults, counts `times`, ends on abort, and is cleared by reset', async () => {
    main.faults.hang('GET /banks', 2);
    const client = clientOf(main.baseUrl);
    await expect(client.banks.list()).rejects.toBeInstanceOf(APITimeoutError);
    const controller = new AbortController();
    const aborted = client.banks.list({ signal: controller.signal, timeout: 0 });
    setTimeout(() => controller.abort(), 20);
    expect(await rejection(aborted)).toBeInstanceOf(APIUserAbortError);
    await expect(client.banks.list(ANSWERED)).resolves.toHaveLength(13);
    main.faults.hang('GET /banks').hangAfterCommit('GET /banks');
    main.reset();
    await expect(client.banks.list(ANSWERED)).resolves.toHaveLength(13);
  });
});

describe('faults.hang on the loopback server', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('holds the socket until the client gives up, then recovers; close() is prompt', async () => {
    server = await startMockServer({ port: 0 });
    server.mock.faults.hangAfterCommit('POST /payouts').hang('GET /banks');
    const client = clientOf(server.baseUrl, realFetch);
    expect(await rejection(client.payouts.create(payout('h-3')))).toBeInstanceOf(APITimeoutError);
    expect(stored(server.mock, 'h-3')).toBe(1);
    expect(await rejection(client.banks.list())).toBeInstanceOf(APITimeoutError);
    await expect(client.banks.list(ANSWERED)).resolves.toHaveLength(13);
    // A request still hanging when the server closes does not keep close() waiting.
    server.mock.faults.hang('GET /banks');
    const pending = client.banks.list({ timeout: 0 }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await server.close();
    server = undefined;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
