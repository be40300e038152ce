import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient, PayoutLookupIncompleteError } from '../../src/index.js';
import { findByReference, lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { useFakeClock } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

// Mobile money in XAF: the service assigns the references, and nobody told the client.
const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END, serviceAssignedCurrencies: ['XAF'] });
beforeEach(() => useFakeClock(new Date('2026-11-24T09:00:00Z')));
afterEach(() => {
  vi.useRealTimers();
  mock.reset();
});

function client() {
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  const made = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logger,
  });
  return { client: made, warnings };
}

const xaf = (externalReference: string) => ({
  amount: '15000',
  currency: 'XAF',
  beneficiary: BENEFICIARY,
  remark: `Mobile money ${externalReference}`,
  externalReference,
});

describe('a currency whose references the service assigns is learned from the first answer', () => {
  it('after one created payout, a lookup by reference in that currency proves nothing, and says why', async () => {
    const { client: c, warnings } = client();
    expect(c.payouts.assignsReference('XAF')).toBe(false);
    const first = await c.payouts.create(xaf('mm-1'));
    expect(first.external_reference).not.toBe('mm-1');
    expect(c.payouts.assignsReference('XAF')).toBe(true);
    expect(c.payouts.assignsReference(' xaf')).toBe(true);

    // mm-2 was sent by an earlier process, and is listed under a reference of the service's own.
    const earlier = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      serviceAssignedCurrencies: ['XAF'],
    });
    await earlier.payouts.create(xaf('mm-2'));
    const error = await findByReference(c, 'mm-2', { currency: 'XAF' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutLookupIncompleteError);
    expect((error as PayoutLookupIncompleteError).reason).toMatch(/XAF payouts under a reference it assigns/);

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('serviceAssignedCurrencies');
    expect(warnings[0]).toContain('XAF');
    expect(warnings[0]).toContain('mm-1');
  });

  it('warns once per currency, and the clients made from it share what was learned', async () => {
    const { client: c, warnings } = client();
    await c.payouts.create(xaf('mm-3'));
    await c.payouts.create(xaf('mm-4'));
    const derived = c.withOptions({ timeout: 5_000 });
    expect(derived.payouts.assignsReference('XAF')).toBe(true);
    await derived.payouts.create(xaf('mm-5'));
    expect(warnings).toHaveLength(1);
    // A client made afresh has learned nothing.
    expect(client().client.payouts.assignsReference('XAF')).toBe(false);
  });

  it('is learned from a POST of lookupBeforeRetry too', async () => {
    const { client: c, warnings } = client();
    const outcome = await lookupBeforeRetry(c, xaf('mm-6'));
    expect(outcome.status).toBe('created');
    expect(c.payouts.assignsReference('XAF')).toBe(true);
    expect(warnings).toHaveLength(1);
  });

  it('a currency answered under the reference sent is not learned, nor one the client already names', async () => {
    const { client: c, warnings } = client();
    await c.payouts.create({ ...xaf('usd-1'), currency: 'USD', amount: '10.00' });
    expect(c.payouts.assignsReference('USD')).toBe(false);
    await c.payouts.create({ ...xaf('ngn-1'), currency: 'NGN', amount: '1000.00' });
    expect(warnings).toEqual([]);
  });
});
