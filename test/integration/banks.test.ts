import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, RequestValidationError } from '../../src/index.js';
import {
  BANKS,
  createPaymentsMock,
  KNOWN_ACCOUNT_NUMBER,
  resolveAccount,
  UNKNOWN_ACCOUNT_NUMBER,
} from '../../src/testing/index.js';
import { clientFor, rejection, useMock } from '../helpers/mock.js';

// A second mock on its own origin, answering in the older boolean envelope (`status: true`, lists in data.data).
const legacy = createPaymentsMock({ baseUrl: 'https://legacy.payments.mock', envelope: 'legacy' });
const { mock, requests } = useMock({}, [legacy]);

describe.each([
  ['current envelope', () => mock],
  ['legacy envelope', () => legacy],
])('banks (%s)', (_name, target) => {
  it('list returns every seeded bank as { bankName, bankCode }', async () => {
    const banks = await clientFor(target()).banks.list();
    expect(banks).toEqual(BANKS);
    expect(banks).toHaveLength(13);
  });

  it('lookup resolves a known account to the holder name the bank returns', async () => {
    const client = clientFor(target());
    const gtb = (await client.banks.list()).find((b) => b.bankName === 'Guaranty Trust Bank')!;
    const account = await client.banks.lookup({
      bankCode: gtb.bankCode,
      accountNumber: KNOWN_ACCOUNT_NUMBER,
    });
    // The mock's own tests pin the record field by field; here it must arrive whole and unchanged.
    expect(account).toEqual(resolveAccount('000013', KNOWN_ACCOUNT_NUMBER));
    expect(account.accountName).toBe('ADAEZE KEMI OKAFOR');
  });

  it('lookup trims its input and sends currency NGN through', async () => {
    const account = await clientFor(target()).banks.lookup({
      bankCode: ' 000014 ',
      accountNumber: ` ${KNOWN_ACCOUNT_NUMBER} `,
      currency: 'NGN',
    });
    expect(account).toMatchObject({ accountNumber: KNOWN_ACCOUNT_NUMBER, bankName: 'Access Bank' });
  });

  it('an unknown account is a NotFoundError with the service message', async () => {
    const error = await rejection(
      clientFor(target()).banks.lookup({ bankCode: '000013', accountNumber: UNKNOWN_ACCOUNT_NUMBER }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, message: expect.stringMatching(/verify the account number/) });
  });

  it('an unknown bank code is a NotFoundError too', async () => {
    const error = await rejection(
      clientFor(target()).banks.lookup({ bankCode: '999999', accountNumber: KNOWN_ACCOUNT_NUMBER }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });
});

describe('banks: input checks', () => {
  it('a malformed NUBAN is refused before anything is sent', async () => {
    const error = await rejection(
      clientFor(mock).banks.lookup({ bankCode: '000013', accountNumber: '12345' }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('accountNumber');
    expect(requests).toEqual([]);
  });

  it('lookup is a read: retried once after a 503 and answered', async () => {
    mock.faults.next({ status: 503, match: 'POST /lookup', retryAfter: 0 });
    const account = await clientFor(mock).banks.lookup({
      bankCode: '000013',
      accountNumber: KNOWN_ACCOUNT_NUMBER,
    });
    expect(account.accountName).toBe('ADAEZE KEMI OKAFOR');
    expect(requests).toEqual(['POST /lookup', 'POST /lookup']);
  });

  it('a 400 from the service arrives as BadRequestError', async () => {
    mock.faults.next({
      status: 400,
      match: 'POST /lookup',
      body: { status: 400, message: 'Bank code is required' },
    });
    const error = await rejection(
      clientFor(mock).banks.lookup({ bankCode: '000013', accountNumber: KNOWN_ACCOUNT_NUMBER }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, body: { message: 'Bank code is required' } });
    expect(requests).toEqual(['POST /lookup']);
  });
});
