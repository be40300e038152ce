import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PaymentsClient,
  PayoutMayHaveMovedError,
  PayoutOutcomeUnknownError,
  PayoutReferenceReusedError,
} from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { BASE, makeClient, payoutInitiated, useServer } from '../helpers/server.js';

const server = useServer();

describe('payouts.create: a reference reused with other details', () => {
  const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel: 'off',
  });
  afterEach(() => mock.reset());

  it('is refused with the fields that differ, the reference and the first payout', async () => {
    const first = await client.payouts.create({
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference: 'vendor-1',
    });
    const other = {
      ...BENEFICIARY,
      accountNumber: '0987654321',
      bankCode: '000014',
      bankName: 'Access Bank',
    };
    const error = await client.payouts
      .create({ amount: '900.00', currency: 'USD', beneficiary: other, externalReference: 'vendor-1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutReferenceReusedError);
    const e = error as PayoutReferenceReusedError;
    expect(e.name).toBe('PayoutReferenceReusedError');
    expect(e.externalReference).toBe('vendor-1');
    expect(e.firstPayoutId).toBe(first.id);
    expect(e.existing).toEqual(first);
    expect(e.fields).toEqual(['amount', 'beneficiary.bankCode']);
    expect(e.message).toContain('vendor-1');
    expect(e.message).toContain(first.id);
    expect(e.message).toContain('amount (sent 900.00 USD');
    // Only the first payout moved money.
    const rows = mock.account().transactions.filter((t) => t.row.external_reference === 'vendor-1');
    expect(rows).toHaveLength(1);
  });

  it('the same payout sent again under its reference is answered with it, no error', async () => {
    const body = {
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      remark: 'March rent',
      externalReference: 'rent-3',
    };
    const first = await client.payouts.create(body);
    await expect(client.payouts.create(body)).resolves.toEqual(first);
  });
});

describe('payouts.create: an answer that is not the payout sent, without a reference', () => {
  it('is a doubt: nothing proves which payout the service made', async () => {
    // 10.00 USD answered for 900.00 USD: a cache in between, or a service that answered another payout.
    const other = { destination_amount: 1000, fee_amount: 10, external_reference: null };
    server.use(http.post(`${BASE}/payouts`, () => HttpResponse.json(payoutInitiated(other))));
    const error = await makeClient()
      .payouts.create({ amount: '900.00', currency: 'USD', beneficiary: BENEFICIARY })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as Error).message).toMatch(/differs in amount/);
    expect((error as Error).message).toMatch(/without an externalReference/);
  });
});

describe('payouts.create: answers that are the payout sent, as a service may show it', () => {
  it('with the fee taken out of the amount, and the remark shortened, the payout is returned', async () => {
    const remark = `Invoice 1001 for March, ${'x'.repeat(70)}`;
    const shown = {
      destination_amount: 24_750,
      fee_amount: 250,
      amount: 25_000,
      remark: remark.slice(0, 64),
      external_reference: 'inv-1001',
      beneficiary: { bank_code: ` ${BENEFICIARY.bankCode} ` },
    };
    server.use(http.post(`${BASE}/payouts`, () => HttpResponse.json(payoutInitiated(shown))));
    const body = {
      amount: '250.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      remark,
      externalReference: 'inv-1001',
    };
    await expect(makeClient().payouts.create(body)).resolves.toMatchObject({ amount: 25_000 });
  });
});
