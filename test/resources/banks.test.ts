import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { NotFoundError, RequestValidationError } from '../../src/index.js';
import { BASE, fail, legacyOk, makeClient, ok, settle, useFakeClock, useServer } from '../helpers/server.js';

const server = useServer();
const banks = [
  { bankName: 'Access Bank', bankCode: '000014' },
  { bankName: 'Zenith Bank', bankCode: '000015', shortName: 'ZIB' },
];

describe('banks.list', () => {
  it('reads data.banks', async () => {
    server.use(http.get(`${BASE}/banks`, () => ok({ banks })));
    expect(await makeClient().banks.list()).toEqual(banks);
  });

  it('reads the older data.data form', async () => {
    server.use(http.get(`${BASE}/banks`, () => legacyOk({ data: banks })));
    expect(await makeClient().banks.list()).toEqual(banks);
  });

  it('rejects a bank without a code', async () => {
    server.use(http.get(`${BASE}/banks`, () => ok({ banks: [{ bankName: 'X' }] })));
    await expect(makeClient().banks.list()).rejects.toThrow(/0\.bankCode/);
  });
});

describe('banks.lookup', () => {
  const result = {
    accountNumber: '0123456789',
    accountName: 'ADA OKAFOR',
    bankCode: '000014',
    bankName: 'Access Bank',
    bvn: '',
    accountNameVerified: true,
  };

  it('trims and sends the body, returning the holder name', async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE}/lookup`, async ({ request }) => {
        body = await request.json();
        return ok(result);
      }),
    );
    const found = await makeClient().banks.lookup({
      bankCode: ' 000014 ',
      accountNumber: '0123456789 ',
      currency: 'NGN',
    });
    expect(found).toEqual(result);
    expect(body).toEqual({ bankCode: '000014', accountNumber: '0123456789', currency: 'NGN' });
  });

  it.each([
    [{ bankCode: '  ', accountNumber: '0123456789' }, 'bankCode', 'Bank code is required'],
    [{ bankCode: '000014', accountNumber: '' }, 'accountNumber', 'Account number is required'],
    [{ bankCode: '000014', accountNumber: '12345' }, 'accountNumber', '10-digit NUBAN'],
    [{ bankCode: '000014', accountNumber: '01234567ab' }, 'accountNumber', '10-digit NUBAN'],
    [
      { bankCode: '000014', accountNumber: '0123456789', currency: 'USD' },
      'currency',
      'Currency must be one of: NGN',
    ],
    [{ accountNumber: '0123456789' }, 'bankCode', 'is required'],
  ])('refuses %o naming %s', async (params, field, message) => {
    const error = await makeClient()
      .banks.lookup(params as any)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as RequestValidationError).message).toContain(message);
  });

  it('maps an unknown account to NotFoundError', async () => {
    server.use(
      http.post(`${BASE}/lookup`, () =>
        fail(404, 'Could not resolve account. Please verify the account number and bank.'),
      ),
    );
    await expect(
      makeClient().banks.lookup({ bankCode: '000014', accountNumber: '0123456789' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('is retried like a read', async () => {
    useFakeClock();
    let calls = 0;
    server.use(http.post(`${BASE}/lookup`, () => (++calls === 1 ? fail(503, 'busy') : ok(result))));
    const outcome = await settle(
      makeClient().banks.lookup({ bankCode: '000014', accountNumber: '0123456789' }),
    );
    expect(outcome).toEqual({ ok: true, value: result });
    expect(calls).toBe(2);
  });
});
