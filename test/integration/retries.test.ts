import { describe, expect, it } from 'vitest';
import { InternalServerError, PayoutMayHaveMovedError, RateLimitError } from '../../src/index.js';
import {
  BENEFICIARY,
  clientFor,
  ngnPayout,
  rejection,
  settle,
  useFakeClock,
  useMock,
} from '../helpers/mock.js';

const { mock, requests } = useMock();

describe('retries against mock faults', () => {
  it('429 with Retry-After: 1, twice: the GET is retried after the server-given delay and succeeds', async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.faults.next({ status: 429, retryAfter: 1, times: 2 });
    const started = Date.now();
    const currencies = await settle(clientFor(mock).wallet.supportedCurrencies());
    expect(currencies.map((c) => c.code)).toEqual(['GHS', 'KES', 'NGN', 'USD', 'USDC', 'USDT', 'XAF']);
    expect(requests).toEqual([
      'GET /wallet/supported-currencies',
      'GET /wallet/supported-currencies',
      'GET /wallet/supported-currencies',
    ]);
    // Retry-After replaced the backoff: one second before each retry.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('more 429s than retries: RateLimitError carrying retryAfter', async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.faults.next({ status: 429, retryAfter: 7, times: 3 });
    const error = await settle(clientFor(mock).banks.list()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfter: 7 });
    // maxRetries defaults to 2: three requests in all.
    expect(requests).toHaveLength(3);
  });

  it("the mock's own sliding-window rate limit is waited out", async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.settings.rateLimit = { requests: 2, perMs: 1_000 };
    const client = clientFor(mock);
    await settle(client.banks.list());
    await settle(client.banks.list());
    const third = await settle(client.banks.list());
    expect(third).toHaveLength(13);
    expect(requests).toHaveLength(4);
  });

  it('a 503 on a GET is retried with backoff; a dropped GET too', async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.faults.next({ status: 503, match: 'GET /wallet/wallets' }).dropAfterCommit('GET /wallet/wallets');
    const wallets = await settle(clientFor(mock).wallet.list());
    expect(wallets).toHaveLength(7);
    expect(requests).toEqual(['GET /wallet/wallets', 'GET /wallet/wallets', 'GET /wallet/wallets']);
  });

  it('maxRetries: 0 surfaces the first 503 as InternalServerError', async () => {
    mock.faults.next({ status: 503, times: 5 });
    const error = await rejection(clientFor(mock, { maxRetries: 0 }).banks.list());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, requestId: expect.stringMatching(/^req_mock_/) });
    expect(requests).toEqual(['GET /banks']);
  });

  it('DELETE (archive) is retried: archiving is idempotent', async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.settings.sandbox = true;
    const client = clientFor(mock);
    const pn = await settle(
      client.payerNames.create({
        entity_type: 'business',
        display_name: 'Retry Ltd',
        country: 'NG',
        address_line: '1 Broad St',
        city: 'Lagos',
        state_province: 'Lagos',
      }),
    );
    requests.length = 0;
    mock.faults.dropAfterCommit(`DELETE /payer-names/${pn.id}`);
    const archived = await settle(client.payerNames.archive(pn.id));
    expect(archived.status).toBe('archived');
    expect(requests).toEqual([`DELETE /payer-names/${pn.id}`, `DELETE /payer-names/${pn.id}`]);
  });

  it('a 503 on POST /payouts is not retried by payouts.create: a doubt to the client, though nothing moved', async () => {
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const error = await rejection(clientFor(mock).payouts.create(ngnPayout('no-retry-1')));
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as PayoutMayHaveMovedError).status).toBe(503);
    expect((error as PayoutMayHaveMovedError).cause).toBeInstanceOf(InternalServerError);
    expect(requests).toEqual(['POST /payouts']);
    expect(mock.account().payouts.size).toBe(0);
    expect(mock.account().wallets.find((w) => w.currency === 'NGN')!.balance).toBe(2_500_000_000);
  });

  it('a 429 on POST /payouts is not retried by payouts.create either', async () => {
    mock.faults.next({ status: 429, retryAfter: 1, match: 'POST /payouts' });
    const error = await rejection(
      clientFor(mock).payouts.create({ amount: '1000.00', currency: 'NGN', beneficiary: BENEFICIARY }),
    );
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as PayoutMayHaveMovedError).cause).toBeInstanceOf(RateLimitError);
    expect(requests).toEqual(['POST /payouts']);
  });
});
