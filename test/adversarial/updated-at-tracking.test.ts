/**
 * Tracking against a service whose startDate/endDate bound updated_at (issue 37 case 2; the spec: "startDate,
 * endDate | string | inclusive; YYYY-MM-DD or full ISO 8601 timestamp", not of which timestamp). A round's walk
 * ends each next query at the last row's created_at; by updated_at that leaves out a payout created before 150
 * newer rows and completed after them. The kill trials on SQLite showed it: records kept the old status, and
 * onFinal never ran for the change.
 */

import { afterEach, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { waitForFinal } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-24T09:00:00.000Z');
const MINUTE = 60_000;
afterEach(() => vi.useRealTimers());

it('waitForFinal sees a payout completed after 150 later payouts were created', async () => {
  useFakeClock(NOW);
  const mock = createPaymentsMock({ invented: { dateRangeField: 'updated_at' } });
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch });
  const body = {
    amount: '25.00' as const,
    currency: 'USD' as const,
    beneficiary: BENEFICIARY,
    externalReference: 'upd-track-1',
  };
  const payout = await client.payouts.create(body);
  // 150 payouts of other invoices, created after ours, never updated since.
  for (let i = 1; i <= 150; i++) {
    const at = new Date(NOW.getTime() + i * 1000).toISOString();
    mock.transactions.add({
      created_at: at,
      updated_at: at,
      source_currency: 'USD',
      description: `Other ${i}`,
    });
  }
  await vi.advanceTimersByTimeAsync(5 * MINUTE);
  mock.transactions.setStatus(payout.id, 'completed'); // updated_at now: after every other row's created_at
  const final = await settle(waitForFinal(client, 'upd-track-1', { payout, totalTimeout: 30 * MINUTE }));
  const said = final.ok ? final.value.status : String(final.error);
  expect(said).toBe('completed');
});
