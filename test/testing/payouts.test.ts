import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { call, KEY, useMocks } from '../helpers/mocks.js';
import { settle, useFakeClock } from '../helpers/server.js';

// These tests find NGN payouts by the caller's reference, which the mock keeps only on request (the spec has
// the service assign NGN references; test/mock-fidelity-ngn.test.ts covers that default).
const { main, limited } = useMocks({
  main: { assignNgnReferences: false },
  limited: { rateLimit: { requests: 2, perMs: 10_000 } },
});

afterEach(() => {
  vi.useRealTimers();
});

// The payout beneficiary the mock's name enquiry resolves, shared with the integration tests.
const beneficiary = BENEFICIARY;

const ngn = () => main.account().wallets.find((w) => w.currency === 'NGN')!;
const pay = (body: Record<string, unknown> = {}) =>
  call(main, 'POST', '/payouts', { body: { amount: 5000, currency: 'NGN', beneficiary, ...body } });

describe('POST /payouts', () => {
  it('deducts amount plus fee and records a withdrawal', async () => {
    const before = ngn().balance;
    const res = await pay({ remark: 'Invoice 42', externalReference: 'inv-42' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, message: 'Payout initiated successfully' });
    expect(res.body).not.toHaveProperty('success');
    expect(res.body.data).toEqual({
      id: expect.any(String),
      remark: 'Invoice 42',
      external_reference: 'inv-42',
      fee_amount: 5_000,
      created_at: expect.any(String),
      destination_amount: 500_000,
      amount: 505_000,
      beneficiary: {
        bank_code: '000013',
        bank_name: 'Guaranty Trust Bank',
        account_name: 'ADAEZE KEMI OKAFOR',
      },
    });
    expect(ngn().balance).toBe(before - 505_000);
    const latest = (await call(main, 'GET', '/transactions')).body.data.transactions[0];
    expect(latest).toMatchObject({
      id: res.body.data.id,
      transaction_type: 'withdrawal',
      status: 'processing',
      external_reference: 'inv-42',
    });
  });

  it('caps the NGN fee at 2,000.00 and assigns a reference when none is sent', async () => {
    const res = await pay({ amount: 500_000 });
    expect(res.body.data).toMatchObject({
      fee_amount: 200_000,
      destination_amount: 50_000_000,
      amount: 50_200_000,
    });
    expect(res.body.data.external_reference).toMatch(/^PO-\d{8}-[A-Z0-9]{10}$/);
  });

  it('returns the original payout for a repeated reference', async () => {
    const first = await pay({ externalReference: 'same' });
    const balance = ngn().balance;
    const again = await pay({ externalReference: 'same', amount: 9999 });
    expect(again.body.data).toEqual(first.body.data);
    expect(ngn().balance).toBe(balance);
  });

  it('creates two payouts when dedupe is off', async () => {
    main.settings.dedupeByReference = false;
    const a = await pay({ externalReference: 'dup' });
    const b = await pay({ externalReference: 'dup' });
    expect(a.body.data.id).not.toBe(b.body.data.id);
    const rows = (await call(main, 'GET', '/wallet/transactions', { query: { reference: 'dup' } })).body.data
      .transactions;
    expect(rows).toHaveLength(2);
  });

  it('validates the body and the balance', async () => {
    const bad = await call(main, 'POST', '/payouts', {
      body: { amount: -1, currency: 'EUR', beneficiary: { accountName: 'x' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Validation failed');
    expect(bad.body.errors.map((e: { path: string[] }) => e.path.join('.')).sort()).toEqual(
      [
        'currency',
        'amount',
        'beneficiary.accountNumber',
        'beneficiary.bankName',
        'beneficiary.bankCode',
        'beneficiary.email',
      ].sort(),
    );
    // The spec's `amount` is a number on the wire (the SDK turns a decimal string into one before sending).
    const text = await pay({ amount: '5000' });
    expect(text.status).toBe(400);
    expect(text.body.errors).toContainEqual({ path: ['amount'], message: 'must be a number' });
    const poor = await pay({ amount: 100_000_000 });
    expect(poor.status).toBe(400);
    expect(poor.body.message).toMatch(/Insufficient NGN balance/);
  });
});

describe('faults', () => {
  it('next: answers the next `times` matching requests, with Retry-After, before any state change', async () => {
    main.faults.next({ status: 503, retryAfter: 7, times: 2, match: 'POST /payouts' });
    const balance = ngn().balance;
    expect((await call(main, 'GET', '/banks')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await pay();
      expect(res).toMatchObject({ status: 503, body: { status: 503, message: 'Service unavailable' } });
      expect(res.headers.get('retry-after')).toBe('7');
    }
    expect(ngn().balance).toBe(balance);
    expect((await pay()).status).toBe(200);
  });

  it('next: a retried GET through the SDK client recovers', async () => {
    main.faults.next({ status: 503, retryAfter: 0, match: '/transactions' });
    const client = new PaymentsClient({ apiKey: KEY, baseUrl: main.baseUrl, logLevel: 'off' });
    const page = await client.paginate({ path: '/transactions', rowsKey: 'transactions' });
    expect(page.data).toHaveLength(20);
  });

  it('dropAfterCommit: the payout is stored, the client sees a network error', async () => {
    main.faults.dropAfterCommit('POST /payouts');
    await expect(pay({ externalReference: 'lost-answer' })).rejects.toThrow(TypeError);
    expect(main.account().payouts.get('lost-answer')).toBeDefined();
    const found = await call(main, 'GET', '/wallet/transactions', { query: { reference: 'lost-answer' } });
    expect(found.body.data.totalCount).toBe(1);
    const retry = await pay({ externalReference: 'lost-answer' });
    expect(retry.body.data.id).toBe(main.account().payouts.get('lost-answer')!.id);
  });

  it('listingLag: new transactions show in listings only after the lag', async () => {
    useFakeClock(new Date('2026-11-20T10:00:00.000Z'));
    main.reset(); // the seeded history ends at the (now fake) clock
    main.faults.listingLag(5_000);
    const created = await settle(pay());
    if (!created.ok) throw created.error;
    const id = created.value.body.data.id;
    const ids = async (path: string) => {
      const res = await settle(call(main, 'GET', path));
      return res.ok ? res.value.body.data.transactions.map((t: { id: string }) => t.id) : [];
    };
    expect(await ids('/transactions')).not.toContain(id);
    expect(await ids('/wallet/transactions')).not.toContain(id);
    vi.advanceTimersByTime(5_000);
    expect((await ids('/transactions'))[0]).toBe(id);
  });

  it('latency: delays each response on the (fake) clock', async () => {
    useFakeClock(new Date('2026-11-20T10:00:00.000Z'));
    main.faults.latency(2_000);
    const start = Date.now();
    const res = await settle(call(main, 'GET', '/banks'));
    expect(res.ok && res.value.status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(2_000);
  });

  it('clear removes pending faults', async () => {
    main.faults.next({ status: 500, times: 5 }).latency(10);
    main.faults.clear();
    expect((await call(main, 'GET', '/banks')).status).toBe(200);
  });

  it('rateLimit: 429 with Retry-After past the limit', async () => {
    // The window slides on Date.now(): a still clock keeps the three requests inside it however slow they are.
    useFakeClock(new Date('2026-11-20T10:00:00.000Z'));
    const send = async () => {
      const res = await settle(call(limited, 'GET', '/banks'));
      if (!res.ok) throw res.error;
      return res.value;
    };
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const third = await send();
    expect(third).toMatchObject({ status: 429, body: { status: 429 } });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
