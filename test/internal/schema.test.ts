import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, KNOWN_ACCOUNT_NUMBER } from '../../src/testing/index.js';

const mock = createPaymentsMock({ seed: 1 });
const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch });
afterEach(() => mock.reset());

async function refusal(call: () => Promise<unknown>): Promise<RequestValidationError> {
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

const beneficiary = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: KNOWN_ACCOUNT_NUMBER,
  bankName: 'Access Bank',
  bankCode: '000014',
  email: 'a@example.com',
};

describe('an unknown field says where fields the SDK does not name go', () => {
  it('names `extra` for a payout body field, and nothing is sent', async () => {
    const transactions = () => mock.account(mock.state.mainAccountId).transactions.length;
    const before = transactions();
    const error = await refusal(() =>
      client.payouts.create({ amount: '10.00', currency: 'NGN', beneficiary, narration: 'x' } as never),
    );
    expect(error.field).toBe('narration');
    expect(error.message).toContain('is not a known field');
    expect(error.message).toContain('`extra`');
    expect(transactions()).toBe(before);
  });

  it('names `extra` for a beneficiary body field', async () => {
    const error = await refusal(() =>
      client.beneficiaries.create({ currency: 'NGN', account_name: 'A', acount_number: '1' } as never),
    );
    expect(error.field).toBe('acount_number');
    expect(error.message).toContain('`extra`');
  });

  it('names `query` for a list filter the spec does not show', async () => {
    const error = await refusal(() => client.payerNames.list({ sort: 'name' } as never).toArray());
    expect(error.field).toBe('sort');
    expect(error.message).toContain('`query`');
  });

  it('names neither where there is no pass-through', async () => {
    const error = await refusal(() => client.transactions.list({ currency: 'NGN' } as never).toArray());
    expect(error.field).toBe('currency');
    expect(error.message).toMatch(/is not a known field$/);
  });
});
