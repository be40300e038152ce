/**
 * `faults.answerAfterCommit`: the request is processed and committed, then answered with an error status, as a
 * gateway's 503 or 504, a 429 or a 408 can arrive after the service took the payout (the spec lists error
 * cases of the payout endpoint as "not shown"). Beside `faults.next`, which answers before anything changes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type createPaymentsMock, type MockServer, startMockServer } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { call, useMocks } from '../helpers/mocks.js';

type Mock = ReturnType<typeof createPaymentsMock>;

const pay = (base: Mock | string, externalReference: string) =>
  call(base, 'POST', '/payouts', {
    body: { amount: 10, currency: 'USD', beneficiary: BENEFICIARY, externalReference },
  });
const listedUnder = async (mock: Mock, reference: string) =>
  (await call(mock, 'GET', '/wallet/transactions', { query: { reference } })).body.data.transactions;

describe('faults.answerAfterCommit', () => {
  // MSW refuses every request it has no handler for, so the loopback server is tried outside this block.
  const { main } = useMocks({ main: {} });
  const usd = () => main.account().wallets.find((w) => w.currency === 'USD')!;

  it('a 503 with Retry-After after the payout was stored: the money moved, the answer says otherwise', async () => {
    main.faults.answerAfterCommit({ status: 503, retryAfter: 30 });
    const before = usd().balance;
    const res = await pay(main, 'commit-503');
    expect(res).toMatchObject({ status: 503, body: { status: 503, message: 'Service unavailable' } });
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('date')).toBeTruthy();
    expect(usd().balance).toBe(before - 1_010);
    expect(await listedUnder(main, 'commit-503')).toHaveLength(1);
    // The fault is spent: a repeat of the reference returns the original payout.
    const again = await pay(main, 'commit-503');
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe((await listedUnder(main, 'commit-503'))[0].id);
  });

  it('429, 408 and 500 alike, each with its usual message, an HTTP-date Retry-After sent verbatim', async () => {
    const cases = [
      { status: 429, message: 'Too many requests', retryAfter: 'Fri, 20 Nov 2026 10:00:30 GMT' },
      { status: 408, message: 'Request timeout' },
      { status: 500, message: 'Internal server error' },
    ];
    for (const [i, { status, message, retryAfter }] of cases.entries()) {
      main.faults.answerAfterCommit({ status, ...(retryAfter && { retryAfter }) });
      const res = await pay(main, `commit-${i}`);
      expect([res.status, res.body.message, res.headers.get('retry-after')]).toEqual([
        status,
        message,
        retryAfter ?? null,
      ]);
      expect(await listedUnder(main, `commit-${i}`)).toHaveLength(1);
    }
  });

  it('strikes POST /payouts by default, `times` requests, with a body of its own when given', async () => {
    main.faults.answerAfterCommit({ status: 502, times: 2, body: { error: 'upstream' } });
    expect((await call(main, 'GET', '/banks')).status).toBe(200);
    const first = await pay(main, 'commit-a');
    const second = await pay(main, 'commit-b');
    expect([first.status, first.body, second.status]).toEqual([502, { error: 'upstream' }, 502]);
    expect((await pay(main, 'commit-c')).status).toBe(200);
    for (const ref of ['commit-a', 'commit-b', 'commit-c'])
      expect(await listedUnder(main, ref)).toHaveLength(1);
  });

  it('takes any match, like the other faults, and clear() removes it', async () => {
    main.faults.answerAfterCommit({ status: 503, match: 'POST /beneficiaries' });
    main.faults.answerAfterCommit({ status: 503 });
    main.faults.clear();
    expect((await pay(main, 'commit-cleared')).status).toBe(200);
    main.faults.answerAfterCommit({ status: 504, match: 'GET /banks' });
    expect((await call(main, 'GET', '/banks')).status).toBe(504);
  });
});

describe('faults.answerAfterCommit over the loopback server', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers the status on the socket after the commit', async () => {
    server = await startMockServer({ port: 0 });
    server.mock.faults.answerAfterCommit({ status: 429, retryAfter: 2 });
    const res = await pay(server.baseUrl, 'commit-socket');
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '2']);
    expect(server.mock.transactions.get('commit-socket').status).toBe('processing');
  });
});
