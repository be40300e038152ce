import { describe, expect, it } from 'vitest';
import { BadRequestError, isBeneficiaryNotFound, NotFoundError } from '../../src/index.js';
import { createPaymentsMock, type PaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY, clientFor, rejection, useMock } from '../helpers/mock.js';

// Every SDK method once against each success envelope the spec shows: the current numeric one
// ({ status: 200, success: true, data }) and the older boolean one ({ status: true, data }, lists in data.data).
const legacy = createPaymentsMock({ baseUrl: 'https://legacy.payments.mock', envelope: 'legacy' });
const { mock } = useMock({}, [legacy]);

describe.each<[string, () => PaymentsMock]>([
  ['current', () => mock],
  ['legacy', () => legacy],
])('every resource method, %s envelope', (_name, target) => {
  it('reads: banks, transactions, wallet', async () => {
    const m = target();
    const client = clientFor(m);
    expect(await client.banks.list()).toHaveLength(13);
    expect((await client.banks.lookup({ bankCode: '000013', accountNumber: '0123456788' })).accountName).toBe(
      'ADAEZE KEMI OKAFOR',
    );
    const tx = await client.transactions.list({ pageSize: 7 });
    expect(tx).toMatchObject({ page: 1, pageSize: 7, totalCount: 54, totalPages: 8, hasMore: true });
    expect((await client.transactions.list({ pageSize: 7 }).toArray()).length).toBe(54);
    expect((await client.wallet.supportedCurrencies()).map((c) => c.code)).toEqual([
      'GHS',
      'KES',
      'NGN',
      'USD',
      'USDC',
      'USDT',
      'XAF',
    ]);
    expect(await client.wallet.list()).toEqual(m.account().wallets);
    const walletTx = await client.wallet.transactions
      .list({ pageSize: 100, query: { type: 'withdrawal' } })
      .toArray();
    expect(walletTx.map((t) => t.id)).toEqual(
      m
        .account()
        .transactions.filter((t) => t.row.transaction_type === 'withdrawal')
        .map((t) => t.row.id),
    );
  });

  it('writes: payouts, beneficiaries, payer names', async () => {
    const m = target();
    const client = clientFor(m);
    const payout = await client.payouts.create({
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference: 'env-1',
    });
    expect(payout).toMatchObject({ external_reference: 'env-1', amount: 1_010 });

    const b = await client.beneficiaries.create({
      currency: 'NGN',
      account_name: 'ADAEZE KEMI OKAFOR',
      account_number: '0123456788',
      bank_code: '000013',
    });
    expect(await client.beneficiaries.retrieve(b.id)).toEqual(b);
    expect((await client.beneficiaries.list().toArray()).map((x) => x.id)).toEqual([b.id]);
    await client.beneficiaries.delete(b.id);
    expect(isBeneficiaryNotFound(await rejection(client.beneficiaries.retrieve(b.id)))).toBe(true);

    const names = [];
    for (let i = 0; i < 5; i++) {
      names.push(
        await client.payerNames.create({
          entity_type: 'business',
          display_name: `Envelope ${i}`,
          country: 'NG',
          address_line: '1 Marina Road',
          city: 'Lagos',
          state_province: 'Lagos',
        }),
      );
    }
    // Nested `pagination` (total, totalPages), walked page by page.
    const first = await client.payerNames.list({ pageSize: 2 });
    expect(first).toMatchObject({ page: 1, pageSize: 2, totalCount: 5, totalPages: 3, hasMore: true });
    const all = await client.payerNames.list({ pageSize: 2 }).toArray();
    expect(all.map((p) => p.id)).toEqual(names.map((p) => p.id).reverse());
    m.payerNames.review(names[0]!.id, 'approve');
    expect((await client.payerNames.setDefault(names[0]!.id)).isDefault).toBe(true);
    expect((await client.payerNames.update(names[0]!.id, { metadata: { k: 'v' } })).metadata).toEqual({
      k: 'v',
    });
    expect((await client.payerNames.archive(names[0]!.id)).status).toBe('archived');
  });

  it('tenants: accounts, KYC links, referral links', async () => {
    const m = target();
    const client = clientFor(m);
    const created = await client.accounts.create({ type: 'individual', name: 'Env Person' });
    const accounts = await client.accounts.list().toArray();
    expect(accounts.map((a) => a.id)).toContain(created.id);
    expect(await client.accounts.fundingInstructions(created.id as string)).toMatchObject({
      account_name: 'Env Person',
    });
    expect((await client.accounts.createKycLink(created.id as string)).status).toBe('active');
    expect(await rejection(client.accounts.createKycLink(m.state.businessAccountId))).toBeInstanceOf(
      BadRequestError,
    );
    expect((await client.broker.createReferralLink()).code).toEqual(expect.any(String));
  });

  it('errors keep their class whatever the envelope', async () => {
    const client = clientFor(target());
    const error = await rejection(client.payerNames.archive('00000000-0000-4000-8000-000000000000'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toMatch(/Payer name not found/);
  });
});
