import { describe, expect, it } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

// Caller input is read from its own properties only: a field the caller's object inherits (from a prototype made
// with `Object.create`, or from a polluted `Object.prototype`) is absent, never sent.

const mock = createPaymentsMock();

function setup() {
  const sent: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      sent.push(`${new Request(input, init).method} ${new URL(new Request(input, init).url).pathname}`);
      return mock.fetch(new Request(input, init));
    },
  });
  return { client, sent };
}

const inherit = <T extends object>(proto: Record<string, unknown>, own: T) =>
  Object.assign(Object.create(proto) as object, own) as T;

describe('request input is read from own properties only', () => {
  it('a payout body whose amount is inherited is refused as missing amount, and nothing is sent', async () => {
    const { client, sent } = setup();
    const body = inherit(
      { amount: '999.00' },
      { currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'own-1' },
    );
    const error = await client.payouts.create(body as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('amount');
    expect(sent).toEqual([]);
  });

  it('an inherited nested field (the beneficiary account number) is missing too', async () => {
    const { client, sent } = setup();
    const { accountNumber, ...rest } = BENEFICIARY as Record<string, unknown>;
    const beneficiary = inherit({ accountNumber }, rest);
    const error = await client.payouts
      .create({ amount: '5.00', currency: 'USD', beneficiary, externalReference: 'own-2' } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toMatch(/^beneficiary\./);
    expect(sent).toEqual([]);
  });

  it('inherited list params are not sent: an inherited pageSize over the ceiling is not read', async () => {
    const { client, sent } = setup();
    await client.transactions.list(inherit({ pageSize: 100_000, status: 'nonsense' }, {}) as never);
    expect(sent).toEqual(['GET /api/v1/external/transactions']);
  });

  it('inherited per-call options are not read: an inherited maxRetries of -1 is not refused', async () => {
    const { client } = setup();
    const page = await client.transactions.list({}, inherit({ maxRetries: -1, timeout: -5 }, {}) as never);
    expect(page.data).toBeInstanceOf(Array);
  });

  it('a class instance is kept as it is: a Date filter is still sent as its ISO string', async () => {
    const { client, sent } = setup();
    await client.transactions.list({ startDate: new Date('2026-11-01T00:00:00Z') });
    expect(sent).toHaveLength(1);
  });
});
