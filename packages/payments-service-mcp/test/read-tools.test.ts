import { PaymentsClient } from 'payments-service-sdk';
import { KNOWN_ACCOUNT_NUMBER, UNKNOWN_ACCOUNT_NUMBER } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_KEY, connect, data, envFor, everything, type Session, useMockServer } from './helpers.js';

const mock = useMockServer();
let session: Session;
const results: unknown[] = [];
let beneficiaryId: string;
let payerNameId: string;

beforeAll(async () => {
  const server = mock.server();
  // Records to read back, made through the SDK itself (the mock starts with none).
  const sdk = new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: server.baseUrl, logLevel: 'off' });
  beneficiaryId = (
    await sdk.beneficiaries.create({
      currency: 'NGN',
      account_name: 'ADAEZE KEMI OKAFOR',
      account_number: KNOWN_ACCOUNT_NUMBER,
      bank_code: '000013',
      bank_name: 'Guaranty Trust Bank',
    })
  ).id;
  payerNameId = (
    await sdk.payerNames.create({
      entity_type: 'business',
      display_name: 'Acme Payouts',
      country: 'NG',
      address_line: '1 Marina',
      city: 'Lagos',
      state_province: 'Lagos',
    })
  ).id;
  session = await connect(envFor(server));
});
afterAll(async () => {
  // Nothing the server answered, nor anything it logged, holds the key.
  expect(results.length).toBeGreaterThan(10);
  expect(results.some((r) => everything(r).includes(CANARY_KEY))).toBe(false);
  expect(session.stderr().includes(CANARY_KEY)).toBe(false);
  await session?.close();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await session.call(name, args);
  results.push(result);
  return result;
}

describe('read tools against the mock over real HTTP', () => {
  it('lists the banks with their codes', async () => {
    const result = await call('list_banks');
    expect(result.isError).toBeFalsy();
    expect(data(result).banks).toContainEqual({ bankName: 'Guaranty Trust Bank', bankCode: '000013' });
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^13 banks\./) });
  });

  it('names the holder of an account, in the shape send_payout takes as nameEnquiry', async () => {
    const result = await call('lookup_account_name', {
      bankCode: '000013',
      accountNumber: KNOWN_ACCOUNT_NUMBER,
    });
    expect(data(result).nameEnquiry).toEqual({
      accountNumber: KNOWN_ACCOUNT_NUMBER,
      bankCode: '000013',
      accountName: 'ADAEZE KEMI OKAFOR',
    });
  });

  it('gives an unknown account as the SDK typed error, and bad input before any request', async () => {
    const unknown = await call('lookup_account_name', {
      bankCode: '000013',
      accountNumber: UNKNOWN_ACCOUNT_NUMBER,
    });
    expect(unknown.isError).toBe(true);
    expect(data(unknown).error).toMatchObject({ class: 'NotFoundError', status: 404 });
    expect(unknown.content[0]).toMatchObject({ text: expect.stringMatching(/^NotFoundError: /) });
    const short = await call('lookup_account_name', { bankCode: '000013', accountNumber: '123' });
    expect(data(short).error).toMatchObject({
      class: 'RequestValidationError',
      issues: [{ path: ['accountNumber'], message: 'must be a 10-digit NUBAN' }],
    });
  });

  it('lists supported currencies with their minor-unit digits', async () => {
    const currencies = data(await call('list_supported_currencies')).currencies;
    expect(currencies.map((c: { code: string }) => c.code)).toEqual([
      'GHS',
      'KES',
      'NGN',
      'USD',
      'USDC',
      'USDT',
      'XAF',
    ]);
    const digits = Object.fromEntries(
      currencies.map(
        (c: { code: string; minorUnitDigits: number | null; minorUnitSource: string | null }) => [
          c.code,
          [c.minorUnitDigits, c.minorUnitSource],
        ],
      ),
    );
    // The spec states NGN's and USD's; XAF's is ISO 4217's (the amounts' `major` uses the same); none for coins.
    expect(digits).toEqual({
      NGN: [2, 'spec'],
      USD: [2, 'spec'],
      XAF: [0, 'ISO 4217'],
      GHS: [2, 'ISO 4217'],
      KES: [2, 'ISO 4217'],
      USDC: [null, null],
      USDT: [null, null],
    });
  });

  it('lists one page of transactions with every amount in minor and major units, and where the next page is', async () => {
    const first = data(await call('list_transactions', { pageSize: 25 }));
    expect(first).toMatchObject({
      page: 1,
      pageSize: 25,
      totalPages: 3,
      hasMore: true,
      nextPage: 2,
      maxPageSize: 100,
    });
    expect(first.transactions).toHaveLength(25);
    for (const row of first.transactions) {
      for (const field of ['source_amount', 'destination_amount']) {
        const amount = row[field];
        expect(amount.currency).toBe(
          row[field === 'source_amount' ? 'source_currency' : 'destination_currency'],
        );
        if (amount.currency === 'XAF') expect(amount.major).toBe(String(amount.minor));
        else if (amount.major !== null) expect(Number(amount.major) * 100).toBeCloseTo(amount.minor, 6);
      }
    }
    const last = data(await call('list_transactions', { pageSize: 25, page: 3 }));
    expect(last).toMatchObject({ page: 3, hasMore: false, nextPage: null });
  });

  it('filters transactions by status and date range', async () => {
    const failed = data(await call('list_transactions', { status: 'failed', pageSize: 100 }));
    expect(failed.transactions.every((t: { status: string }) => t.status === 'failed')).toBe(true);
    const all = data(await call('list_transactions', { pageSize: 100 })).transactions;
    const day = all[0].created_at.slice(0, 10);
    const oneDay = data(await call('list_transactions', { startDate: day, endDate: day, pageSize: 100 }));
    expect(oneDay.transactions.length).toBeGreaterThan(0);
    expect(oneDay.transactions.every((t: { created_at: string }) => t.created_at.startsWith(day))).toBe(true);
  });

  it('refuses a page larger than the cap in the input schema, and a malformed date as the SDK does', async () => {
    const big = await call('list_transactions', { pageSize: 500 });
    expect(big.isError).toBe(true);
    expect(everything(big.content)).toMatch(/pageSize/);
    const date = await call('list_transactions', { startDate: 'yesterday' });
    expect(data(date).error).toMatchObject({ class: 'RequestValidationError' });
  });

  it('finds a payout by reference, and says when both listings hold none', async () => {
    const listed = data(await call('list_transactions', { pageSize: 100 })).transactions;
    const withdrawal = listed.find(
      (t: Record<string, unknown>) => t.transaction_type === 'withdrawal' && t.external_reference,
    );
    const found = data(
      await call('find_payout_by_reference', {
        externalReference: withdrawal.external_reference,
        since: '2000-01-01T00:00:00Z',
      }),
    );
    expect(found).toMatchObject({ found: true, transaction: { id: withdrawal.id } });
    const none = data(await call('find_payout_by_reference', { externalReference: 'never-sent-1' }));
    expect(none).toEqual({ found: false });
  });

  it('lists and gets payer names', async () => {
    const list = data(await call('list_payer_names', { pageSize: 10 }));
    expect(list).toMatchObject({
      page: 1,
      hasMore: false,
      payerNames: [{ id: payerNameId, name: 'Acme Payouts' }],
    });
    const one = data(await call('get_payer_name', { payerNameId }));
    expect(one.payerName).toMatchObject({ id: payerNameId, status: 'pending_review' });
    const missing = await call('get_payer_name', { payerNameId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.isError).toBe(true);
    expect(data(missing)).toEqual({ found: false, complete: true });
  });

  it('lists and gets beneficiaries', async () => {
    const list = data(await call('list_beneficiaries'));
    expect(list.beneficiaries).toEqual([
      expect.objectContaining({ id: beneficiaryId, account_name: 'ADAEZE KEMI OKAFOR' }),
    ]);
    const one = data(await call('get_beneficiary', { beneficiaryId }));
    expect(one.beneficiary).toMatchObject({ id: beneficiaryId, bank_code: '000013' });
    const bad = data(await call('get_beneficiary', { beneficiaryId: 'not-a-uuid' }));
    expect(bad.error).toMatchObject({ class: 'RequestValidationError' });
  });

  it('acts as a tenancy account given per call, and refuses a non-uuid account id as the SDK does', async () => {
    const server = mock.server();
    const own = data(await call('list_transactions', { pageSize: 1 })).totalCount;
    const sub = data(
      await call('list_transactions', { pageSize: 1, accountId: server.mock.state.businessAccountId }),
    );
    // Failed transactions are left out of the default listing.
    const listed = (id: string) =>
      server.mock.account(id).transactions.filter((t) => t.row.status !== 'failed').length;
    expect(own).toBe(listed(server.mock.state.mainAccountId));
    expect(sub.totalCount).toBe(listed(server.mock.state.businessAccountId));
    expect(sub.totalCount).not.toBe(own);
    const bad = data(await call('list_banks', { accountId: 'acct-1' }));
    expect(bad.error).toMatchObject({
      class: 'RequestValidationError',
      message: expect.stringMatching(/accountId/),
    });
  });
});
