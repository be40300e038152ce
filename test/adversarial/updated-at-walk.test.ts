/**
 * A service whose startDate/endDate bound updated_at (issue 37 case 2, allowed by the spec) and a window holding
 * more than one page: the walk's next query ends at the last row's created_at, which by updated_at leaves out
 * the payout created earlier and completed later. The lookup reads "absent" and the payout is sent again.
 */

import { afterEach, expect, it, vi } from 'vitest';
import { PaymentsClient, remarkMatch } from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-24T09:00:00.000Z');
const MINUTE = 60_000;
afterEach(() => vi.useRealTimers());

it('lookupFirst after a lost answer: a payout completed after 150 later rows is found, not sent again', async () => {
  useFakeClock(NOW);
  const mock = createPaymentsMock({ dedupeByReference: false, invented: { dateRangeField: 'updated_at' } });
  let posts = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payouts')) posts++;
    return mock.fetch(request);
  };
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch });
  const body = {
    amount: '5000.00' as const,
    currency: 'NGN' as const,
    beneficiary: BENEFICIARY,
    remark: 'Invoice upd-walk-1',
    externalReference: 'upd-walk-1',
  };
  mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
  const sentAt = new Date();
  expect((await settle(client.payouts.create(body))).ok).toBe(false);
  // 150 other payouts of other merchants' invoices, created after ours, never updated since.
  for (let i = 1; i <= 150; i++) {
    const at = new Date(NOW.getTime() + i * 1000).toISOString();
    mock.transactions.add({ created_at: at, updated_at: at, description: `Other ${i}` });
  }
  await vi.advanceTimersByTimeAsync(10 * MINUTE);
  const ours = mock.transactions.get('upd-walk-1');
  mock.transactions.setStatus(ours.id, 'completed'); // updated_at now: after every other row's
  await vi.advanceTimersByTimeAsync(50 * MINUTE);
  const outcome = await settle(
    lookupBeforeRetry(client, body, {
      lookupFirst: true,
      since: sentAt,
      match: remarkMatch(body),
      listingLagMs: 15_000,
    }),
  );
  const said = outcome.ok ? (outcome.value as { status: string }).status : String(outcome.error);
  expect(posts, `POSTs (the SDK said ${said})`).toBe(1);
});
