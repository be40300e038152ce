import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BeneficiaryVerificationError,
  type PayoutCreateParams,
  RequestValidationError,
  remarkMatch,
} from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import {
  BASE,
  fail,
  listingAnswer,
  makeClient,
  ok,
  payoutAnswerFor,
  transaction,
  useServer,
} from '../helpers/server.js';
import { wiredClient } from '../helpers/wire.js';

const server = useServer();
afterEach(() => vi.useRealTimers());

const ADA = { ...BENEFICIARY, bankCode: '000014', bankName: 'Access Bank' };
const BANKS = [
  { bankName: 'Access Bank', bankCode: '000014' },
  { bankName: 'Guaranty Trust Bank', bankCode: '000013' },
];
const ngn = (beneficiary: object = ADA, extra: object = {}) =>
  ({ amount: '2500.00', currency: 'NGN', beneficiary, ...extra }) as PayoutCreateParams;

/**
 * A service whose name enquiry knows `accounts` (number -> holder), whose GET /banks answers each list of `lists`
 * in turn (the last one from then on), and which takes every payout. Counts each kind of request.
 */
function service(
  accounts: Record<string, string> = { [ADA.accountNumber]: ADA.accountName },
  lists = [BANKS],
) {
  const seen = { banks: 0, lookups: 0, payouts: 0, listings: 0 };
  server.use(
    http.get(`${BASE}/banks`, () => ok({ banks: lists[Math.min(seen.banks++, lists.length - 1)] })),
    http.post(`${BASE}/lookup`, async ({ request }) => {
      seen.lookups++;
      const { accountNumber = '', bankCode } = (await request.json()) as Record<string, string>;
      const accountName = accounts[accountNumber];
      if (!accountName) {
        return fail(
          404,
          'Account could not be resolved. Please verify the account number and bank and try again.',
        );
      }
      return ok({
        accountNumber,
        accountName,
        bankCode,
        bankName: 'Access Bank',
        bvn: '',
        accountNameVerified: true,
      });
    }),
    http.post(`${BASE}/payouts`, async ({ request }) => {
      seen.payouts++;
      return HttpResponse.json(payoutAnswerFor((await request.json()) as Record<string, unknown>));
    }),
    http.get(`${BASE}/transactions`, ({ request }) => {
      seen.listings++;
      return listingAnswer(request, []);
    }),
  );
  return seen;
}

const verified = () => makeClient({ verifyBeneficiary: true, maxRetries: 0 });

describe('the 10-digit NUBAN rule for NGN, whether or not verifyBeneficiary is on', () => {
  it.each([
    ['9 digits', '012345678'],
    ['11 digits', '01234567890'],
    ['a letter', '012345678O'],
    ['blank', '   '],
  ])('refuses an NGN account number of %s before any request', async (_, accountNumber) => {
    // No handler: any request at all fails the test.
    for (const client of [makeClient(), verified()]) {
      const error = await rejection(client.payouts.create(ngn({ ...ADA, accountNumber })));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('beneficiary.accountNumber');
      expect((error as RequestValidationError).message).toContain('10-digit NUBAN');
      expect(() => client.payouts.check(ngn({ ...ADA, accountNumber }))).toThrow(RequestValidationError);
      const retried = rejection(
        lookupBeforeRetry(client, { ...ngn({ ...ADA, accountNumber }), externalReference: 'r-1' }),
      );
      expect(await retried).toBeInstanceOf(RequestValidationError);
    }
  });

  it('takes a NUBAN with white space around it, in any case of currency, and other currencies any account number', () => {
    const client = makeClient();
    expect(
      client.payouts.check(ngn({ ...ADA, accountNumber: ' 0123456788 ' })).beneficiary.accountNumber,
    ).toBe(' 0123456788 ');
    expect(() => client.payouts.check(ngn(ADA, { currency: ' ngn ' }))).not.toThrow();
    expect(() => client.payouts.check(ngn({ ...ADA, accountNumber: '9' }, { currency: 'ngn' }))).toThrow(
      RequestValidationError,
    );
    // The spec gives other currencies' account numbers no rule: an IBAN, a US account, anything goes.
    for (const accountNumber of ['GB29NWBK60161331926819', '000123456789', '12']) {
      expect(() =>
        client.payouts.check(ngn({ ...ADA, accountNumber }, { amount: '25.00', currency: 'USD' })),
      ).not.toThrow();
    }
  });
});

describe('verifyBeneficiary: a name check before money leaves', () => {
  it('is off by default: a payout goes out with no GET /banks and no name enquiry', async () => {
    const seen = service();
    await makeClient().payouts.create(ngn({ ...ADA, accountName: 'SOMEONE ELSE' }));
    expect(seen).toEqual({ banks: 0, lookups: 0, payouts: 1, listings: 0 });
  });

  it('sends a payout whose holder name matches the name enquiry, after GET /banks and POST /lookup', async () => {
    const seen = service();
    const payout = await verified().payouts.create(ngn());
    expect(payout.destination_amount).toBe(250_000);
    expect(seen).toEqual({ banks: 1, lookups: 1, payouts: 1, listings: 0 });
  });

  it.each([
    ['case and spacing', 'adaeze   kemi okafor'],
    ['punctuation', 'Adaeze-Kemi, Okafor.'],
    ['a tab and a non-breaking space', 'ADAEZE\tKEMI\u00a0OKAFOR'],
    ['word order (surname first)', 'OKAFOR, Adaeze Kemi'],
  ])('takes a name that differs only by %s', async (_, accountName) => {
    const seen = service();
    await verified().payouts.create(ngn({ ...ADA, accountName }));
    expect(seen.payouts).toBe(1);
  });

  it('refuses a holder name the name enquiry contradicts, naming both, and sends nothing', async () => {
    const seen = service();
    const error = await rejection(verified().payouts.create(ngn({ ...ADA, accountName: 'EMEKA BELLO' })));
    expect(error).toBeInstanceOf(BeneficiaryVerificationError);
    const refusal = error as BeneficiaryVerificationError;
    expect(refusal).toMatchObject({
      name: 'BeneficiaryVerificationError',
      reason: 'name_mismatch',
      accountName: 'EMEKA BELLO',
      enquiryName: 'ADAEZE KEMI OKAFOR',
      accountNumber: '0123456788',
      bankCode: '000014',
    });
    expect(refusal.message).toBe(
      'beneficiary.accountName "EMEKA BELLO" does not match the holder the name enquiry gives for account 0123456788 at bank 000014, "ADAEZE KEMI OKAFOR" (compared ignoring case, spacing, punctuation and word order). Nothing was sent.',
    );
    expect(seen.payouts).toBe(0);
  });

  it('refuses an account no bank recognises (POST /lookup 404), and sends nothing', async () => {
    const seen = service({});
    const error = await rejection(verified().payouts.create(ngn()));
    expect(error).toMatchObject({ reason: 'unknown_account', accountName: 'ADAEZE KEMI OKAFOR' });
    expect((error as Error).message).toBe(
      'no bank recognises account 0123456788 at bank 000014 (the name enquiry, POST /lookup, answered 404): check beneficiary.accountNumber and beneficiary.bankCode. Nothing was sent.',
    );
    expect(seen).toMatchObject({ lookups: 1, payouts: 0 });
  });

  it('refuses bank code 999999, which GET /banks does not list, after fetching the list once more; no name enquiry', async () => {
    const seen = service();
    const client = verified();
    await client.payouts.create(ngn()); // the list is now cached
    const error = await rejection(client.payouts.create(ngn({ ...ADA, bankCode: '999999' })));
    expect(error).toBeInstanceOf(BeneficiaryVerificationError);
    expect(error).toMatchObject({ reason: 'unknown_bank', bankCode: '999999' });
    expect((error as Error).message).toBe(
      'beneficiary.bankCode "999999" is not among the bank codes GET /banks lists now: take bankCode from banks.list(). Nothing was sent.',
    );
    // One GET for the first payout, one more on the miss; no lookup and no POST for the second.
    expect(seen).toEqual({ banks: 2, lookups: 1, payouts: 1, listings: 0 });
  });

  it('keeps the bank list an hour, and finds a bank listed since by fetching again on a miss', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const NEW_BANK = { bankName: 'New Bank', bankCode: '000099' };
    const seen = service({ [ADA.accountNumber]: ADA.accountName }, [BANKS, [...BANKS, NEW_BANK]]);
    const client = verified();
    await client.payouts.create(ngn());
    await client.payouts.create(ngn());
    expect(seen.banks).toBe(1);
    await client.payouts.create(ngn({ ...ADA, bankCode: '000099' }));
    expect(seen.banks).toBe(2);
    vi.setSystemTime(Date.now() + 60 * 60_000 - 1);
    await client.payouts.create(ngn());
    expect(seen.banks).toBe(2);
    vi.setSystemTime(Date.now() + 2);
    await client.payouts.create(ngn());
    expect(seen).toMatchObject({ banks: 3, payouts: 5 });
  });

  it('refuses when the check cannot run (a 5xx on the name enquiry, or on GET /banks), saying so; nothing is sent', async () => {
    const seen = service();
    server.use(http.post(`${BASE}/lookup`, () => fail(503, 'Service Unavailable')));
    const error = await rejection(verified().payouts.create(ngn()));
    expect(error).toMatchObject({ reason: 'check_failed' });
    expect((error as Error).message).toMatch(
      /^the beneficiary could not be checked \(POST \/lookup: .*503.*\), so the payout is refused rather than sent unchecked: try again later\. Nothing was sent\.$/,
    );
    expect((error as Error).cause).toBeDefined();
    server.use(http.get(`${BASE}/banks`, () => fail(500, 'boom')));
    const banks = await rejection(verified().payouts.create(ngn()));
    expect(banks).toMatchObject({ reason: 'check_failed' });
    expect((banks as Error).message).toContain('(GET /banks: ');
    expect(seen.payouts).toBe(0);
  });

  it('refuses an answer about another account than the one asked (a broken proxy, a lying server)', async () => {
    const seen = service();
    server.use(
      http.post(`${BASE}/lookup`, () =>
        ok({
          accountNumber: '0000000000',
          accountName: ADA.accountName,
          bankCode: '000014',
          bankName: 'Access Bank',
        }),
      ),
    );
    const error = await rejection(verified().payouts.create(ngn()));
    expect(error).toMatchObject({ reason: 'check_failed' });
    expect((error as Error).message).toContain(
      'the name enquiry answered for account 0000000000 at bank 000014',
    );
    expect(seen.payouts).toBe(0);
  });

  it('a call overrides the client: off on a verifying client, on for a client that does not verify', async () => {
    const seen = service();
    await verified().payouts.create(ngn({ ...ADA, accountName: 'SOMEONE ELSE' }), {
      verifyBeneficiary: false,
    });
    expect(seen).toMatchObject({ banks: 0, lookups: 0, payouts: 1 });
    const refused = await rejection(
      makeClient().payouts.create(ngn({ ...ADA, accountName: 'SOMEONE ELSE' }), { verifyBeneficiary: true }),
    );
    expect(refused).toMatchObject({ reason: 'name_mismatch' });
    expect(seen).toMatchObject({ banks: 1, lookups: 1, payouts: 1 });
    const typo = await rejection(makeClient().payouts.create(ngn(), { verifyBeneficiary: 'yes' as never }));
    expect(typo).toBeInstanceOf(RequestValidationError);
    expect((typo as RequestValidationError).field).toBe('verifyBeneficiary');
    expect(() => makeClient({ verifyBeneficiary: 1 as never })).toThrow(RequestValidationError);
  });

  it('checks nothing with the service for other currencies: the spec has no name enquiry for them', async () => {
    const seen = service();
    const usd = ngn({ ...ADA, accountName: 'SOMEONE ELSE' }, { amount: '25.00', currency: 'USD' });
    await verified().payouts.create(usd);
    expect(seen).toEqual({ banks: 0, lookups: 0, payouts: 1, listings: 0 });
  });

  it('lookupBeforeRetry checks before its first POST: a refusal sends nothing and reads no listing', async () => {
    const seen = service();
    const body = {
      ...ngn({ ...ADA, accountName: 'EMEKA BELLO' }),
      externalReference: 'inv-1',
      remark: 'inv-1',
    };
    const error = await rejection(lookupBeforeRetry(verified(), body, { visibilityWaits: [0] }));
    expect(error).toMatchObject({ reason: 'name_mismatch' });
    expect(seen).toMatchObject({ payouts: 0, listings: 0 });
    const outcome = await lookupBeforeRetry(
      makeClient(),
      { ...body, beneficiary: ADA },
      { verifyBeneficiary: true, visibilityWaits: [0] },
    );
    expect(outcome.status).toBe('created');
    expect(seen).toMatchObject({ lookups: 2, payouts: 1 });
  });

  it('lookupBeforeRetry with lookupFirst finds a payout sent before without asking the bank again', async () => {
    const seen = service();
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        seen.listings++;
        const row = transaction(1, {
          external_reference: 'PO-20261101-ABCDEFGHIJ',
          description: 'inv-2',
          destination_amount: 250_000,
          fee_amount: 2500,
          source_amount: 252_500,
          created_at: new Date(Date.now() - 60_000).toISOString(),
        });
        return listingAnswer(request, [row]);
      }),
    );
    const body = { ...ngn(), externalReference: 'inv-2', remark: 'inv-2' };
    const outcome = await lookupBeforeRetry(verified(), body, {
      lookupFirst: true,
      match: remarkMatch(body),
      visibilityWaits: [0],
    });
    expect(outcome.status).toBe('recovered');
    expect(seen).toMatchObject({ banks: 0, lookups: 0, payouts: 0 });
  });

  it('payouts.verify checks as create does before its POST, and sends no payout', async () => {
    const seen = service();
    const wire = await verified().payouts.verify(ngn());
    expect(wire).toMatchObject({ amount: 2500, currency: 'NGN' });
    expect(seen).toEqual({ banks: 1, lookups: 1, payouts: 0, listings: 0 });
    const refused = await rejection(
      makeClient().payouts.verify(ngn({ ...ADA, accountName: 'X Y' }), { verifyBeneficiary: true }),
    );
    expect(refused).toMatchObject({ reason: 'name_mismatch' });
    // Off, it is `check`, asynchronous.
    await makeClient().payouts.verify(ngn({ ...ADA, accountName: 'X Y' }));
    expect(seen).toMatchObject({ lookups: 2, payouts: 0 });
    // `check` sends nothing, so it cannot verify: the option is refused there, pointing at verify.
    expect(() => makeClient().payouts.check(ngn(), { verifyBeneficiary: true } as never)).toThrow(
      /payouts\.verify/,
    );
  });

  it('works against the mock, whose name enquiry gives the same holder for the same account every time', async () => {
    const mock = createPaymentsMock();
    const { client, wire } = wiredClient(mock);
    const names = await Promise.all(
      [1, 2].map(() => client.banks.lookup({ bankCode: '000013', accountNumber: BENEFICIARY.accountNumber })),
    );
    expect(names.map((n) => n.accountName)).toEqual([BENEFICIARY.accountName, BENEFICIARY.accountName]);
    const body = { amount: '100.00', currency: 'NGN', beneficiary: BENEFICIARY } as const;
    await client.payouts.create(body, { verifyBeneficiary: true });
    const refused = await rejection(
      client.payouts.create(
        { ...body, beneficiary: { ...BENEFICIARY, accountName: 'EMEKA BELLO' } },
        { verifyBeneficiary: true },
      ),
    );
    expect(refused).toMatchObject({ reason: 'name_mismatch', enquiryName: 'ADAEZE KEMI OKAFOR' });
    expect(wire.filter((w) => w.url.endsWith('/payouts'))).toHaveLength(1);
  });
});
