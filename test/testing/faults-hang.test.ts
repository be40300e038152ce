import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APITimeoutError,
  APIUserAbortError,
  PaymentsClient,
  type PayoutMayHaveMovedError,
} from '../../src/index.js';
import { type MockServer, type PaymentsMock, startMockServer } from '../../src/testing/index.js';
import { useFakeClock } from '../helpers/clock.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { KEY, useMocks } from '../helpers/mocks.js';

// Taken before MSW patches fetch, so the loopback client below talks to the real socket.
const realFetch = globalThis.fetch;
// These tests find NGN payouts by the caller's reference, which the mock keeps only on request (the spec has
// the service assign NGN references; test/mock-fidelity-ngn.test.ts covers that default).
const { main } = useMocks({ main: { assignNgnReferences: false } });

// The payout beneficiary the mock's name enquiry resolves, shared with the integration tests.
const beneficiary = BENEFICIARY;
const payout = (externalReference: string) => ({
  amount: '1000.00',
  currency: 'NGN',
  beneficiary,
  externalReference,
});
const stored = (mock: typeof main, ref: string) =>
  mock.account().transactions.filter((t) => t.row.external_reference === ref).length;
/** Calls expected to be answered get a generous timeout, so a loaded machine cannot fail them. */
const ANSWERED = { timeout: 10_000 };
const CLIENT_TIMEOUT_MS = 50;
const clientOf = (baseUrl: string, fetch?: typeof globalThis.fetch) =>
  new PaymentsClient({
    apiKey: KEY,
    baseUrl,
    logLevel: 'off',
    timeout: CLIENT_TIMEOUT_MS,
    maxRetries: 0,
    fetch,
  });

/**
 * Each answer the mock withholds, as an event: `next()` resolves when the mock has taken a hang (before or after
 * commit) for a request, i.e. the request reached it and is now held. The tests wait for that, then let the
 * client's timeout fire on the fake clock: a real 50 ms timeout would race the request itself on a loaded
 * machine, and could fire before the mock even saw (or committed) the request.
 */
function watchHangs(mock: PaymentsMock) {
  const take = mock.faults.take.bind(mock.faults);
  let taken = 0;
  let waited = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  vi.spyOn(mock.faults, 'take').mockImplementation((slot, request) => {
    const hung = take(slot, request);
    if (hung && slot.startsWith('hang:')) {
      taken++;
      for (const w of waiters.filter((w) => w.n <= taken)) w.resolve();
    }
    return hung;
  });
  return {
    next: () => {
      const n = ++waited;
      return n <= taken ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
    },
  };
}

/** Lets the client's timeout run out on the fake clock. */
const timeOut = () => vi.advanceTimersByTimeAsync(CLIENT_TIMEOUT_MS);

afterEach(() => {
  vi.useRealTimers();
});

describe('faults.hang and faults.hangAfterCommit (MSW)', () => {
  it('hang: the request is never answered nor processed; the client times out', async () => {
    useFakeClock();
    const hangs = watchHangs(main);
    main.faults.hang('POST /payouts');
    const client = clientOf(main.baseUrl);
    const pending = rejection(client.payouts.create(payout('h-1')));
    await hangs.next();
    expect(stored(main, 'h-1')).toBe(0);
    await timeOut();
    // create's doubt, caused by the timeout.
    expect(((await pending) as PayoutMayHaveMovedError).cause).toBeInstanceOf(APITimeoutError);
    expect(stored(main, 'h-1')).toBe(0);
    // Consumed: the next request is answered normally.
    await expect(client.payouts.create(payout('h-1'), ANSWERED)).resolves.toMatchObject({
      external_reference: 'h-1',
    });
    expect(stored(main, 'h-1')).toBe(1);
  });

  it('hangAfterCommit: the payout is stored, the answer never comes', async () => {
    useFakeClock();
    const hangs = watchHangs(main);
    main.faults.hangAfterCommit('POST /payouts');
    const client = clientOf(main.baseUrl);
    const pending = rejection(client.payouts.create(payout('h-2')));
    await hangs.next();
    expect(stored(main, 'h-2')).toBe(1);
    await timeOut();
    // create's doubt, caused by the timeout.
    expect(((await pending) as PayoutMayHaveMovedError).cause).toBeInstanceOf(APITimeoutError);
    expect(stored(main, 'h-2')).toBe(1);
  });

  it('matches like the other faults, counts `times`, ends on abort, and is cleared by reset', async () => {
    useFakeClock();
    const hangs = watchHangs(main);
    main.faults.hang('GET /banks', 2);
    const client = clientOf(main.baseUrl);
    const timedOut = rejection(client.banks.list());
    await hangs.next();
    await timeOut();
    expect(await timedOut).toBeInstanceOf(APITimeoutError);
    const controller = new AbortController();
    const aborted = rejection(client.banks.list({ signal: controller.signal, timeout: 0 }));
    // The second hang is taken (the request is held), then the caller gives up.
    await hangs.next();
    controller.abort();
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
    await expect(client.banks.list(ANSWERED)).resolves.toHaveLength(13);
    main.faults.hang('GET /banks').hangAfterCommit('GET /banks');
    main.reset();
    await expect(client.banks.list(ANSWERED)).resolves.toHaveLength(13);
  });
});

describe('faults.hang on the loopback server', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await server?.close();
    server = undefined;
  });

  it('holds the socket until the client gives up, then recovers; close() is prompt', async () => {
    server = await startMockServer({ port: 0, assignNgnReferences: false });
    useFakeClock();
    const hangs = watchHangs(server.mock);
    server.mock.faults.hangAfterCommit('POST /payouts').hang('GET /banks');
    const client = clientOf(server.baseUrl, realFetch);
    const created = rejection(client.payouts.create(payout('h-3')));
    await hangs.next();
    expect(stored(server.mock, 'h-3')).toBe(1);
    await timeOut();
    expect(((await created) as PayoutMayHaveMovedError).cause).toBeInstanceOf(APITimeoutError);
    const listed = rejection(client.banks.list());
    await hangs.next();
    await timeOut();
    expect(await listed).toBeInstanceOf(APITimeoutError);
    await expect(client.banks.list(ANSWERED)).resolves.toHaveLength(13);
    // A request still hanging when the server closes does not keep close() waiting: without the server
    // destroying its sockets, close() would wait for that request for ever. The bound is only there to fail
    // with a clear message; it is not a claim about speed.
    vi.useRealTimers();
    server.mock.faults.hang('GET /banks');
    const pending = client.banks.list({ timeout: 0 }).catch((error: unknown) => error);
    await hangs.next();
    const stop = new AbortController();
    const closing = await Promise.race([
      server.close().then(() => 'closed'),
      sleep(15_000, 'still waiting on the hung request', { signal: stop.signal }),
    ]);
    stop.abort();
    server = undefined;
    expect(closing).toBe('closed');
    expect(await pending).toBeInstanceOf(Error);
  }, 30_000);
});
