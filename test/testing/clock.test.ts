/**
 * The service's clock: `mock.now()` is `Date.now()` plus `settings.clockOffsetMs`. Every timestamp the mock
 * writes reads it, and every answer carries it in a `Date` header, so a client can measure how far its own
 * clock is from the service's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPaymentsMock, type MockServer, startMockServer } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { call, KEY, useMocks } from '../helpers/mocks.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const DAY = 86_400_000;
const SKEW = 3 * DAY + 1_234;

afterEach(() => {
  vi.useRealTimers();
});

/** Only `Date` is faked: the clock stands still while MSW, fetch and sockets run on real timers. */
const stillClock = () => vi.useFakeTimers({ toFake: ['Date'], now: NOW });
const httpDate = (ms: number) => new Date(ms).toUTCString();

function send(mock: ReturnType<typeof createPaymentsMock>, method: string, path: string, body?: unknown) {
  const headers = { 'X-API-Key': KEY, 'Content-Type': 'application/json' };
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return mock.fetch(`${mock.baseUrl}${path}`, init);
}

describe('mock.now()', () => {
  it('is Date.now() plus clockOffsetMs, follows fake timers, and takes a live offset', () => {
    stillClock();
    const mock = createPaymentsMock({ clockOffsetMs: SKEW });
    expect(mock.now()).toBe(NOW.getTime() + SKEW);
    vi.setSystemTime(NOW.getTime() + 60_000);
    expect(mock.now()).toBe(NOW.getTime() + 60_000 + SKEW);
    mock.settings.clockOffsetMs = -DAY;
    expect(mock.now()).toBe(NOW.getTime() + 60_000 - DAY);
    mock.reset();
    expect(mock.settings.clockOffsetMs).toBe(SKEW);
  });

  it('defaults to no offset', () => {
    stillClock();
    expect(createPaymentsMock().now()).toBe(NOW.getTime());
  });
});

describe('timestamps the mock writes are on the service clock', () => {
  it('a payout: created_at and updated_at in the response and the listing', async () => {
    stillClock();
    const mock = createPaymentsMock({ clockOffsetMs: SKEW });
    const body = { amount: 10, currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'clk-1' };
    const paid = (await (await send(mock, 'POST', '/payouts', body)).json()) as { data: { id: string } };
    const at = new Date(NOW.getTime() + SKEW).toISOString();
    expect(paid.data).toMatchObject({ created_at: at });
    expect(mock.account().transactions[0]!.row).toMatchObject({ created_at: at, updated_at: at });
  });

  it('the seeded history ends at the service clock, so the newest rows are ahead of the client', () => {
    stillClock();
    const newest = (m: ReturnType<typeof createPaymentsMock>) =>
      Date.parse(m.account().transactions[0]!.row.created_at);
    const shifted = newest(createPaymentsMock({ clockOffsetMs: SKEW })) - newest(createPaymentsMock());
    expect(shifted).toBe(SKEW);
  });

  it('payer names, KYC links and their expiry read it', async () => {
    stillClock();
    const mock = createPaymentsMock({ clockOffsetMs: SKEW });
    const at = new Date(NOW.getTime() + SKEW).toISOString();
    const name = {
      entity_type: 'business',
      display_name: 'Skewed Ltd',
      country: 'NG',
      address_line: '1 Marina',
      city: 'Lagos',
      state_province: 'Lagos',
    };
    const created = (await (await send(mock, 'POST', '/payer-names', name)).json()) as {
      data: { id: string; createdAt: string };
    };
    expect(created.data.createdAt).toBe(at);
    const account = mock.state.individualAccountId;
    await send(mock, 'POST', `/accounts/${account}/kyc-link`);
    expect(mock.kyc.links(account)[0]).toMatchObject({
      createdAt: at,
      expiresAt: new Date(NOW.getTime() + SKEW + 72 * 3_600_000).toISOString(),
      status: 'active',
    });
    // 72 hours later on the service's clock (the client's has not moved), the link has expired.
    mock.settings.clockOffsetMs = SKEW + 72 * 3_600_000;
    expect(mock.kyc.links(account)[0]!.status).toBe('expired');
  });

  it('listing lag is counted on the service clock: a row appears once the service has moved on', async () => {
    stillClock();
    const mock = createPaymentsMock({ clockOffsetMs: SKEW });
    mock.faults.listingLag(5_000);
    const body = { amount: 10, currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'clk-lag' };
    await send(mock, 'POST', '/payouts', body);
    const listed = async () =>
      ((await (await send(mock, 'GET', '/transactions')).json()) as { data: { transactions: unknown[] } })
        .data.transactions[0];
    expect(await listed()).not.toMatchObject({ external_reference: 'clk-lag' });
    mock.settings.clockOffsetMs += 5_000;
    expect(await listed()).toMatchObject({ external_reference: 'clk-lag' });
  });

  it('the rate limit window slides on the service clock', async () => {
    stillClock();
    const mock = createPaymentsMock({ rateLimit: { requests: 1, perMs: 10_000 } });
    expect((await send(mock, 'GET', '/banks')).status).toBe(200);
    expect((await send(mock, 'GET', '/banks')).status).toBe(429);
    mock.settings.clockOffsetMs = 10_000;
    expect((await send(mock, 'GET', '/banks')).status).toBe(200);
  });
});

describe('every answer carries a Date header from the service clock', () => {
  it('success, error, unknown path, canned fault, rate limit and a partial body, in both envelopes', async () => {
    stillClock();
    const mock = createPaymentsMock({ clockOffsetMs: SKEW, rateLimit: { requests: 5, perMs: 60_000 } });
    const expected = httpDate(NOW.getTime() + SKEW);
    const dates: Array<string | null> = [];
    const note = async (response: Promise<Response>) => dates.push((await response).headers.get('date'));
    await note(send(mock, 'GET', '/banks'));
    await note(mock.fetch(`${mock.baseUrl}/banks`)); // 401: no key
    await note(send(mock, 'GET', '/nowhere'));
    mock.faults.next({ status: 503, match: 'GET /banks' });
    await note(send(mock, 'GET', '/banks'));
    mock.settings.envelope = 'legacy';
    await note(send(mock, 'GET', '/transactions'));
    mock.faults.bodyFault('oversized', 'GET /banks');
    await note(send(mock, 'GET', '/banks'));
    await note(send(mock, 'GET', '/banks')); // the sixth request: 429
    expect(dates).toEqual(Array(7).fill(expected));
  });

  it('moves with the clock and with a live offset', async () => {
    stillClock();
    const mock = createPaymentsMock();
    const date = async () => (await send(mock, 'GET', '/banks')).headers.get('date');
    expect(await date()).toBe(httpDate(NOW.getTime()));
    vi.setSystemTime(NOW.getTime() + 90_000);
    expect(await date()).toBe(httpDate(NOW.getTime() + 90_000));
    mock.settings.clockOffsetMs = -DAY;
    expect(await date()).toBe(httpDate(NOW.getTime() + 90_000 - DAY));
  });

  describe('through MSW', () => {
    const { skewed } = useMocks({ skewed: { clockOffsetMs: SKEW } });

    it('reaches a client unchanged', async () => {
      stillClock();
      const res = await call(skewed, 'GET', '/transactions', { query: { pageSize: 1 } });
      expect(res.headers.get('date')).toBe(httpDate(NOW.getTime() + SKEW));
    });
  });

  describe('over the loopback server', () => {
    let server: MockServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it("Node's http sends the mock's Date, not its own", async () => {
      stillClock();
      server = await startMockServer({ port: 0, clockOffsetMs: SKEW });
      const ok = await call(server.baseUrl, 'GET', '/banks');
      const refused = await call(server.baseUrl, 'GET', '/banks', { key: null });
      expect([ok.status, refused.status]).toEqual([200, 401]);
      expect(ok.headers.get('date')).toBe(httpDate(NOW.getTime() + SKEW));
      expect(refused.headers.get('date')).toBe(httpDate(NOW.getTime() + SKEW));
    });
  });
});
