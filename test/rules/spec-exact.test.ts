/**
 * Spec exactness, each case built from the spec's own wording: the SDK
 * refuses only what the spec refuses, checks what it states, and passes through where it is silent.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  type BeneficiaryInput,
  currencyDigits,
  RequestValidationError,
  toMinorUnits,
} from '../../src/index.js';
import {
  BASE,
  makeClient,
  ok,
  PAYOUT_BENEFICIARY,
  payoutAnswerFor,
  payoutInitiated,
  useServer,
} from '../helpers/server.js';

const server = useServer();
const PAYER_NAME_ID = '7d9e2f10-3c4b-4a5d-8e6f-0a1b2c3d4e5f';
const BENEFICIARY_ID = '5b6c7d8e-9f00-4a1b-8c2d-3e4f5a6b7c8d';

/** Records each request's method, query and JSON body, and answers with `respond`. */
function record(
  method: 'get' | 'post' | 'patch',
  path: string,
  respond: (body: Record<string, unknown>) => Response,
) {
  const seen: { url: URL; body: Record<string, unknown> | undefined }[] = [];
  server.use(
    http[method](`${BASE}${path}`, async ({ request }) => {
      const text = await request.text();
      const body = text ? JSON.parse(text) : undefined;
      seen.push({ url: new URL(request.url), body });
      return respond(body);
    }),
  );
  return seen;
}

const payoutAnswer = (body: Record<string, unknown>) => HttpResponse.json(payoutAnswerFor(body));
const refusal = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => undefined,
    (error: unknown) => error,
  );

describe('refusals the spec does not make', () => {
  it('payouts: no invented maxima or non-blank rules on the beneficiary, remark or reference', async () => {
    const seen = record('post', '/payouts', payoutAnswer);
    const remark = 'r'.repeat(300);
    const externalReference = `ref-${'x'.repeat(300)}`;
    const beneficiary = { ...PAYOUT_BENEFICIARY, accountName: 'A'.repeat(400), email: '' };
    await makeClient().payouts.create({
      amount: '5000.00',
      currency: 'NGN',
      beneficiary,
      remark,
      externalReference,
    });
    expect(seen[0]?.body).toMatchObject({ remark, externalReference, beneficiary });
  });

  it('payouts carry `payerNameId` ("Payouts reference a payer name as payerNameId") and unnamed fields via extra', async () => {
    const seen = record('post', '/payouts', payoutAnswer);
    await makeClient().payouts.create({
      amount: '5000.00',
      currency: 'NGN',
      beneficiary: PAYOUT_BENEFICIARY,
      payerNameId: PAYER_NAME_ID,
      extra: { purpose_code: 'SALA' },
    });
    expect(seen[0]?.body).toMatchObject({ payerNameId: PAYER_NAME_ID, purpose_code: 'SALA' });
    expect(seen[0]?.body).not.toHaveProperty('extra');
    // A typo is still refused, so it cannot drop the reference.
    const typo = await refusal(
      makeClient().payouts.create({
        amount: '1.00',
        currency: 'NGN',
        beneficiary: PAYOUT_BENEFICIARY,
        externalRefernce: 'r',
      } as never),
    );
    expect(typo).toMatchObject({ name: 'RequestValidationError', field: 'externalRefernce' });
  });

  it('a banks.lookup() result spread into the beneficiary compiles and is sent with the spec fields only', async () => {
    const seen = record('post', '/payouts', payoutAnswer);
    const lookup = {
      accountNumber: '0123456789',
      accountName: 'ADA',
      bankCode: '044',
      bankName: 'Access',
      bvn: '',
      accountNameVerified: true,
    };
    await makeClient().payouts.create({
      amount: '1.00',
      currency: 'NGN',
      beneficiary: { ...lookup, email: 'a@b.co' },
    });
    expect(seen[0]?.body?.beneficiary).toEqual({
      accountNumber: '0123456789',
      accountName: 'ADA',
      bankCode: '044',
      bankName: 'Access',
      email: 'a@b.co',
    });
  });

  it('USDC and USDT: no minor unit is assumed; `digits` checks the amount when the caller knows it', async () => {
    expect(currencyDigits('USDC')).toBeUndefined();
    expect(currencyDigits('USDT')).toBeUndefined();
    expect(currencyDigits('XAF')).toBe(0); // ISO 4217, a published fact
    const seen = record('post', '/payouts', payoutAnswer);
    await makeClient().payouts.create({
      amount: '10.123456',
      currency: 'USDC',
      beneficiary: PAYOUT_BENEFICIARY,
    });
    expect(seen[0]?.body?.amount).toBe(10.123456);
    const finer = await refusal(
      makeClient().payouts.create(
        { amount: '10.1234567', currency: 'USDT', beneficiary: PAYOUT_BENEFICIARY },
        { digits: 6 },
      ),
    );
    expect(finer).toMatchObject({ name: 'RequestValidationError', field: 'amount' });
    expect(seen).toHaveLength(1);
    expect(toMinorUnits('USDC', '1.5', 6)).toBe(1_500_000);
    expect(() => toMinorUnits('USDC', '1.5')).toThrow(/digits/);
  });

  it('a lower-case currency code is sent as given', async () => {
    const seen = record('post', '/payouts', payoutAnswer);
    await makeClient().payouts.create({
      amount: '5000.50',
      currency: 'ngn',
      beneficiary: PAYOUT_BENEFICIARY,
    });
    expect(seen[0]?.body).toMatchObject({ currency: 'ngn', amount: 5000.5 });
    // Digits are still the currency's: kobo has two places.
    const finer = await refusal(
      makeClient().payouts.create({
        amount: '1.001' as never,
        currency: 'ngn',
        beneficiary: PAYOUT_BENEFICIARY,
      }),
    );
    expect(finer).toBeInstanceOf(RequestValidationError);
  });

  it('the payer-name status filter sends a review status the spec does not list', async () => {
    const seen = record('get', '/payer-names', () =>
      ok({ payerNames: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } }),
    );
    await makeClient().payerNames.list({ status: 'escalated' });
    expect(seen[0]?.url.searchParams.get('status')).toBe('escalated');
  });

  it('pageSize over 100 is sent where the spec states no ceiling; GET /transactions keeps its 100', async () => {
    const names = record('get', '/payer-names', () =>
      ok({ payerNames: [], pagination: { page: 1, pageSize: 250, total: 0, totalPages: 0 } }),
    );
    const beneficiaries = record('get', '/beneficiaries', () =>
      ok({ beneficiaries: [], totalCount: 0, page: 1, pageSize: 250, totalPages: 0 }),
    );
    const client = makeClient();
    await client.payerNames.list({ pageSize: 250 });
    await client.beneficiaries.list({ pageSize: 250 });
    expect(names[0]?.url.searchParams.get('pageSize')).toBe('250');
    expect(beneficiaries[0]?.url.searchParams.get('pageSize')).toBe('250');
    await expect(client.transactions.list({ pageSize: 101 })).rejects.toMatchObject({ field: 'pageSize' });
  });

  it('an update that omits withdrawal_method ("omit keeps the current rail") is not checked as an NGN transfer', async () => {
    const seen = record('patch', `/beneficiaries/${BENEFICIARY_ID}`, () =>
      ok({ id: BENEFICIARY_ID, withdrawal_method: 'mobile_money' }),
    );
    // A mobile-money beneficiary has no account_name; the update names no rail, so none is asked for.
    await makeClient().beneficiaries.update(BENEFICIARY_ID, {
      currency: 'XAF',
      label: 'Mum',
    } as BeneficiaryInput);
    expect(seen[0]?.body).toEqual({ currency: 'XAF', label: 'Mum' });
  });

  it('bank_address rules belong to ach, domestic_wire and international_wire ("optional on other rails")', async () => {
    const seen = record('post', '/beneficiaries', () =>
      ok({ id: BENEFICIARY_ID, withdrawal_method: 'local_transfer' }),
    );
    const local: BeneficiaryInput = {
      withdrawal_method: 'local_transfer',
      currency: 'KES',
      account_name: 'Wanjiru',
      account_owner_type: 'individual',
      bank_address: { country: 'Kenya', city: '' },
    };
    await makeClient().beneficiaries.create(local);
    expect(seen[0]?.body?.bank_address).toEqual({ country: 'Kenya', city: '' });
    const wire = await refusal(
      makeClient().beneficiaries.create({
        withdrawal_method: 'international_wire',
        currency: 'EUR',
        account_name: 'A',
        account_number: 'DE89',
        bank_name: 'B',
        swift_code: 'DEUTDEFF',
        account_owner_type: 'business',
        bank_address: { country: 'Germany', city: 'Berlin' },
      }),
    );
    expect(wire).toMatchObject({ field: 'bank_address.country' });
  });

  it('a payout response with null remark and external_reference is read as absent, not thrown after the money moved', async () => {
    server.use(
      http.post(`${BASE}/payouts`, () =>
        HttpResponse.json(
          payoutInitiated({
            destination_amount: 500_000,
            fee_amount: 100,
            remark: null,
            external_reference: null,
          }),
        ),
      ),
    );
    const payout = await makeClient().payouts.create({
      amount: '5000.00',
      currency: 'NGN',
      beneficiary: PAYOUT_BENEFICIARY,
    });
    // Read as the listing reads the same facts (a field that does not apply is left out): one type for both.
    expect(payout.remark).toBeUndefined();
    expect(payout.external_reference).toBeUndefined();
  });
});

describe('checks the spec makes', () => {
  it.each([
    ['2026-11-01T10:00Z', 'no seconds'],
    ['2026-11-01T10:00:00', 'no offset'],
    ['2026-11-01 10:00:00Z', 'a space for T'],
  ])('11. %s (%s) is not a "full ISO 8601 timestamp" and is refused before sending', async (startDate) => {
    const seen = record('get', '/transactions', () =>
      ok({ transactions: [], totalCount: 0, page: 1, pageSize: 20, totalPages: 0 }),
    );
    await expect(makeClient().transactions.list({ startDate })).rejects.toMatchObject({ field: 'startDate' });
    expect(seen).toHaveLength(0);
  });

  it('full timestamps with seconds and an offset, and bare dates, are sent', async () => {
    const seen = record('get', '/transactions', () =>
      ok({ transactions: [], totalCount: 0, page: 1, pageSize: 20, totalPages: 0 }),
    );
    await makeClient().transactions.list({ startDate: '2026-11-01T10:00:00+01:00', endDate: '2026-11-30' });
    await makeClient().transactions.list({ startDate: '2026-11-01T10:00:00.250Z' });
    expect(seen.map((s) => s.url.searchParams.get('startDate'))).toEqual([
      '2026-11-01T10:00:00+01:00',
      '2026-11-01T10:00:00.250Z',
    ]);
  });

  it('account_owner_type is "required for bank-account beneficiaries except NGN", with no rail too', async () => {
    const seen = record('post', '/beneficiaries', () => ok({ id: BENEFICIARY_ID, withdrawal_method: null }));
    const ghs = { currency: 'GHS', account_name: 'Kofi', account_number: '1234567890', bank_name: 'GCB' };
    const error = await refusal(makeClient().beneficiaries.create(ghs as BeneficiaryInput));
    expect(error).toMatchObject({ name: 'RequestValidationError', field: 'account_owner_type' });
    // "accepted but optional for NGN"
    await makeClient().beneficiaries.create({
      currency: 'NGN',
      account_name: 'Ada',
      account_number: '0123456789',
      bank_code: '044',
    });
    expect(seen).toHaveLength(1);
  });
});

describe('extra, the pass-through', () => {
  it('cannot replace the body: toJSON and functions are refused, and nothing is sent', async () => {
    const seen = record('post', '/payouts', payoutAnswer);
    const hijack = { toJSON: () => ({ amount: 999_999, externalReference: 'other' }) };
    const error = await refusal(
      makeClient().payouts.create({
        amount: '5.00',
        currency: 'NGN',
        beneficiary: PAYOUT_BENEFICIARY,
        extra: hijack,
      }),
    );
    expect(error).toMatchObject({ name: 'RequestValidationError', field: 'extra.toJSON' });
    const fn = await refusal(
      makeClient().payouts.create({
        amount: '5.00',
        currency: 'NGN',
        beneficiary: PAYOUT_BENEFICIARY,
        extra: { f: () => 1 },
      }),
    );
    expect(fn).toMatchObject({ field: 'extra.f' });
    expect(seen).toHaveLength(0);
  });
});
