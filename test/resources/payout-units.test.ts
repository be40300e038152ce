/**
 * The amount's unit, the currency code and the payout ceilings, as a plain JavaScript caller meets them (the
 * compiler's side is test/types/payouts.test.ts): each refusal names the field and the unit or the ceiling, and
 * nothing reaches the mock. A JavaScript caller's body is typed here `as never`: the compiler would refuse it.
 */
import { describe, expect, it } from 'vitest';
import {
  type Payout,
  type PayoutCreateParams,
  RequestValidationError,
  toMajorUnits,
} from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { BENEFICIARY, clientFor, rejection, useMock } from '../helpers/mock.js';

const { mock, requests } = useMock();
const beneficiary = BENEFICIARY;
const LIMITS = { NGN: '5000000.00', USD: '10000.00' };
/** What the last POST /payouts carried, as JSON. */
const posted: unknown[] = [];
const recording = () =>
  clientFor(mock, {
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') posted.push(await request.clone().json());
      return mock.fetch(request);
    },
  });

/** The error of a call that must be refused before anything is sent. */
async function refused(promise: PromiseLike<unknown>): Promise<RequestValidationError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(requests).toEqual([]);
  return error as RequestValidationError;
}

describe('the unit of a payout amount', () => {
  it('a bare number in `amount` (minor units meant, or a response amount fed back) is refused, naming the unit', async () => {
    const payout = { amount: 252_500 } as Payout;
    for (const amount of [1000, payout.amount]) {
      const error = await refused(
        clientFor(mock).payouts.create({ amount, currency: 'USD', beneficiary } as never),
      );
      expect(error.field).toBe('amount');
      expect(error.message).toBe(
        `Invalid request: amount: must be a decimal string in MAJOR units ('2500.00' is 2,500.00 of the currency), not the number ${amount}; whole MINOR units (kobo, cents) go in amountMinor`,
      );
    }
  });

  it('both forms at once, or neither, is refused', async () => {
    const both = await refused(
      clientFor(mock).payouts.create({
        amount: '10.00',
        amountMinor: 1000,
        currency: 'USD',
        beneficiary,
      } as never),
    );
    expect(both.message).toBe(
      'Invalid request: amountMinor: give either amount (MAJOR units) or amountMinor (MINOR units), not both',
    );
    const neither = await refused(clientFor(mock).payouts.create({ currency: 'USD', beneficiary } as never));
    expect(neither.field).toBe('amount');
    expect(neither.message).toContain('is required');
  });

  it('amountMinor is sent as the exact major-unit number, by the currency digits', async () => {
    const client = recording();
    posted.length = 0;
    const payout = await client.payouts.create({ amountMinor: 250_050, currency: 'NGN', beneficiary });
    await client.payouts.create({ amountMinor: 1_500, currency: 'XAF', beneficiary });
    await client.payouts.create({ amountMinor: 1_500_000, currency: 'USDT', beneficiary }, { digits: 6 });
    // A response's own minor amount can be sent back as it is.
    await client.payouts.create({ amountMinor: payout.destination_amount, currency: 'NGN', beneficiary });
    expect(posted.map((body) => (body as { amount: unknown }).amount)).toEqual([2500.5, 1500, 1.5, 2500.5]);
    expect(posted[0]).not.toHaveProperty('amountMinor');
    expect(payout.destination_amount).toBe(250_050);
  });

  it('amountMinor that is not whole, or in USDC/USDT without digits, is refused', async () => {
    const fraction = await refused(
      clientFor(mock).payouts.create({ amountMinor: 1.5, currency: 'NGN', beneficiary }),
    );
    expect(fraction.message).toContain('amountMinor: must be a whole number of MINOR units');
    const text = await refused(
      clientFor(mock).payouts.create({ amountMinor: '250000', currency: 'NGN', beneficiary } as never),
    );
    expect(text.field).toBe('amountMinor');
    const coin = await refused(
      clientFor(mock).payouts.create({ amountMinor: 5, currency: 'USDC', beneficiary }),
    );
    expect(coin.message).toContain('amountMinor: cannot be converted for USDC');
    expect(coin.message).toContain('pass digits');
  });
});

describe("a major amount carries exactly its currency's digits", () => {
  it("minor units written as a major string ('250000' kobo, '2500' in NGN) are refused, with both spellings", async () => {
    const kobo = await refused(
      clientFor(mock).payouts.create({ amount: '250000', currency: 'NGN', beneficiary } as never),
    );
    expect(kobo.field).toBe('amount');
    expect(kobo.message).toBe(
      "Invalid request: amount: must carry exactly 2 decimals in NGN, so that minor units cannot pass as major ones: '250000.00' (or amountMinor: 25000000) is 250000.00 NGN; if 250000 is in minor units, write '2500.00' (or amountMinor: 250000)",
    );
    const short = await refused(
      clientFor(mock).payouts.create({ amount: '2500.5', currency: 'usd', beneficiary } as never),
    );
    expect(short.message).toBe(
      "Invalid request: amount: must carry exactly 2 decimals in USD, so that minor units cannot pass as major ones: write '2500.50' (or amountMinor: 250050)",
    );
    const xaf = await refused(
      clientFor(mock).payouts.create({ amount: '2500.00', currency: 'XAF', beneficiary } as never),
    );
    expect(xaf.message).toBe(
      "Invalid request: amount: must carry no decimals in XAF, so that minor units cannot pass as major ones: write '2500' (or amountMinor: 2500)",
    );
    // The ceiling the README suggests does not let the slip through either.
    const capped = clientFor(mock, { payoutLimits: { NGN: '5000000.00' } });
    await refused(capped.payouts.create({ amount: String(250_000), currency: 'NGN', beneficiary } as never));
  });

  it('the right spelling of every currency whose digits are known is sent; USDC and USDT keep their own decimals', async () => {
    const client = recording();
    posted.length = 0;
    await client.payouts.create({ amount: '2500.00', currency: 'NGN', beneficiary });
    await client.payouts.create({ amount: '2500', currency: 'XAF', beneficiary });
    await client.payouts
      .create({ amount: '12.345', currency: 'KWD', beneficiary } as never)
      .catch(() => undefined);
    await client.payouts.create({ amount: '100', currency: 'USDT', beneficiary });
    await client.payouts.create({ amount: '100.5', currency: 'USDC', beneficiary });
    expect(posted.map((body) => (body as { amount: unknown }).amount)).toEqual([
      2500, 2500, 12.345, 100, 100.5,
    ]);
    // KES is ISO 4217 with two decimals: the same rule holds for codes the spec does not name.
    const kes = await refused(
      clientFor(mock).payouts.create({ amount: '2500', currency: 'KES', beneficiary }),
    );
    expect(kes.message).toContain('must carry exactly 2 decimals in KES');
  });

  it('lookupBeforeRetry, payouts.check and the outbox refuse the slip too, sending and recording nothing', async () => {
    const body = { amount: '250000', currency: 'NGN', beneficiary, externalReference: 'kobo-1' } as never;
    for (const lookupFirst of [false, true]) {
      await refused(lookupBeforeRetry(clientFor(mock), body, { lookupFirst }));
    }
    expect(() => clientFor(mock).payouts.check(body)).toThrow(/exactly 2 decimals in NGN/);
    const outbox = createPayoutOutbox({ client: clientFor(mock), store: memoryOutboxStore() });
    await refused(outbox.enqueue(body));
    expect(await outbox.list()).toEqual([]);
  });

  it('toMajorUnits spells a minor amount the way a payout takes it', async () => {
    const client = recording();
    posted.length = 0;
    await client.payouts.create({ amount: toMajorUnits('NGN', 250_000), currency: 'NGN', beneficiary });
    await client.payouts.create({ amount: toMajorUnits('XAF', 2_500), currency: 'XAF', beneficiary });
    expect(posted.map((body) => (body as { amount: unknown }).amount)).toEqual([2500, 2500]);
  });
});

describe('the currency code', () => {
  it('a code one letter away from one the spec names is refused, with the one meant', async () => {
    for (const [currency, meant] of [
      ['NGX', 'NGN'],
      ['ngm', 'NGN'],
      ['UDS', 'USD'],
      ['USTD', 'USDT'],
      ['XA', 'XAF'],
    ]) {
      const error = await refused(
        clientFor(mock).payouts.create({ amount: '10', currency, beneficiary } as never),
      );
      expect(error.field).toBe('currency');
      expect(error.message).toContain(`did you mean ${meant}?`);
    }
  });

  it('other codes, and the real ones one letter away, are sent for the service to judge', async () => {
    const client = recording();
    posted.length = 0;
    for (const [currency, amount] of [
      ['XOF', '10'],
      ['BSD', '10.00'],
      ['KES', '10.00'],
      ['USDP', '10'],
    ]) {
      // The mock may take or refuse it: what matters is that the SDK sent it as given.
      await client.payouts
        .create({ amount: amount!, currency: currency!, beneficiary })
        .catch(() => undefined);
    }
    expect(posted.map((body) => (body as { currency: unknown }).currency)).toEqual([
      'XOF',
      'BSD',
      'KES',
      'USDP',
    ]);
  });
});

describe('payoutLimits', () => {
  const limited = () => clientFor(mock, { payoutLimits: LIMITS });
  const usd = (amount: string): PayoutCreateParams => ({ amount, currency: 'USD', beneficiary });

  it('payouts.create: over the ceiling, or a currency without one, is refused naming the amount and the ceiling', async () => {
    const over = await refused(limited().payouts.create(usd('10000.01')));
    expect(over.field).toBe('amount');
    expect(over.message).toBe(
      'Invalid request: amount: 10000.01 USD is over the payout ceiling of 10000.00 USD (payoutLimits)',
    );
    const minor = await refused(
      limited().payouts.create({ amountMinor: 1_000_001, currency: 'USD', beneficiary }),
    );
    expect(minor.message).toBe(
      'Invalid request: amountMinor: 1000001 (10000.01 USD) is over the payout ceiling of 10000.00 USD (payoutLimits)',
    );
    const uncapped = await refused(limited().payouts.create({ amount: '10', currency: 'xaf', beneficiary }));
    expect(uncapped.field).toBe('currency');
    expect(uncapped.message).toContain('XAF has no ceiling in payoutLimits (ceilings are set for: NGN, USD)');
    // The comparison is exact: a hair over is over, the ceiling itself is not.
    const coin = clientFor(mock, { payoutLimits: { USDT: '100' } });
    await refused(coin.payouts.create({ amount: '100.0000000001', currency: 'USDT', beneficiary }));
    await expect(limited().payouts.create(usd('10000.00'))).resolves.toMatchObject({
      destination_amount: 1_000_000,
    });
    await expect(
      limited().payouts.create({ amount: ' 10000.00 ' as never, currency: ' usd', beneficiary }),
    ).resolves.toBeTruthy();
  });

  it('lookupBeforeRetry: refused before any lookup or POST, lookupFirst included', async () => {
    for (const lookupFirst of [false, true]) {
      const error = await refused(
        lookupBeforeRetry(limited(), { ...usd('20000.00'), externalReference: 'cap-1' }, { lookupFirst }),
      );
      expect(error.message).toContain('20000.00 USD is over the payout ceiling of 10000.00 USD');
    }
  });

  it("the outbox's enqueue: refused through the client it holds, and nothing is recorded", async () => {
    const store = memoryOutboxStore();
    const outbox = createPayoutOutbox({ client: limited(), store });
    const error = await refused(outbox.enqueue({ ...usd('10000.50'), externalReference: 'cap-2' }));
    expect(error.field).toBe('amount');
    expect(await outbox.list()).toEqual([]);
    const typo = await refused(outbox.enqueue({ amount: 1000, currency: 'USD', beneficiary } as never));
    expect(typo.message).toContain('not the number 1000');
    expect(await outbox.list()).toEqual([]);
  });

  it('payouts.check: the body as it would be sent, or the refusal; a tenant client keeps the ceilings', () => {
    expect(limited().payouts.check({ amountMinor: 250_000, currency: 'NGN', beneficiary })).toEqual({
      amount: 2500,
      currency: 'NGN',
      beneficiary,
    });
    const tenant = limited().forAccount('3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f');
    expect(() => tenant.payouts.check(usd('10000.01'))).toThrow(/over the payout ceiling of 10000\.00 USD/);
    expect(requests).toEqual([]);
  });

  it.each([
    [{ USD: 10000 }, 'payoutLimits.USD', 'got a number'],
    [{ USD: '0' }, 'payoutLimits.USD', 'greater than 0'],
    [{ USD: '1e4' }, 'payoutLimits.USD', 'decimal string in MAJOR units'],
    [{ NGN: '1', ngn: '2' }, 'payoutLimits.ngn', 'names NGN a second time'],
    [[], 'payoutLimits', 'must be an object'],
  ])('a ceiling it cannot read is refused at construction: %o', (payoutLimits, field, message) => {
    const error = (() => {
      try {
        clientFor(mock, { payoutLimits: payoutLimits as never });
      } catch (e) {
        return e as RequestValidationError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });
});
