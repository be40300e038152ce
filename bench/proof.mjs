// 8. What a proof of absence costs, in listing pages, with 100,000 transactions a day in the listing (the mock,
// in-process: pages are counted, not timed). A payout sent now whose answer is lost, proven absent (a 503) and
// found (a cut connection after the service took it), through lookupBeforeRetry; and the same payout looked up an
// hour later by the outbox. A window runs from before the first send to the service's now, with no upper bound
// (the spec does not say which timestamp the range filters, nor whose clock stamps a row): the cost grows with the
// time since the send, here the hour of rows listed after it. Both drivers read up to 1,000 pages per listing.
import { PaymentsClient } from '../dist/index.js';
import { createPayoutOutbox, memoryOutboxStore } from '../dist/outbox.js';
import { lookupBeforeRetry } from '../dist/payouts.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../dist/testing.js';

const PER_DAY = 100_000;
const HOUR = 3_600_000;
const BENEFICIARY = {
  accountName: 'ADA OKAFOR',
  accountNumber: '0123456789',
  bankName: 'Access Bank',
  bankCode: '000014',
  email: 'ada@example.com',
};

/**
 * A mock whose main account lists `PER_DAY` withdrawals spread over a day: the 23 hours before now and the hour
 * after (what an hour later's lookup would find newer than the payout), newest first.
 */
function busyMock() {
  const mock = createPaymentsMock({ dedupeByReference: false });
  const now = Date.now() + HOUR;
  const rows = [];
  for (let i = 0; i < PER_DAY; i++) {
    const at = new Date(now - Math.floor((i * 86_400_000) / PER_DAY)).toISOString();
    rows.push({
      visibleAt: 0,
      row: {
        id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
        transaction_type: 'withdrawal',
        status: 'completed',
        description: `other ${i}`,
        external_reference: `other-${i}`,
        fee_amount: 1,
        source_amount: 101,
        destination_amount: 100,
        source_currency: 'USD',
        destination_currency: 'USD',
        created_at: at,
        updated_at: at,
      },
    });
  }
  mock.account().transactions.push(...rows);
  return mock;
}

/** A client on the mock that counts listing pages. */
function counting(mock) {
  let pages = 0;
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/transactions')) pages += 1;
      return mock.fetch(request);
    },
  });
  return { client, pages: () => pages, reset: () => (pages = 0) };
}

const usd = (externalReference) => ({
  amount: '25.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});

export async function proofCost() {
  const mock = busyMock();
  const { client, pages, reset } = counting(mock);
  const figures = {};

  mock.faults.next({ status: 503, match: 'POST /payouts' });
  const absent = await lookupBeforeRetry(client, usd('proof-absent'), {
    visibilityWaits: [0],
    listingLagMs: 0,
    maxLookupPages: 1000,
    maxAttempts: 1,
  });
  figures.absent = { outcome: absent.status, pages: pages() };

  reset();
  mock.faults.dropAfterCommit('POST /payouts');
  const found = await lookupBeforeRetry(client, usd('proof-found'), {
    visibilityWaits: [0],
    listingLagMs: 0,
    maxLookupPages: 1000,
    maxAttempts: 1,
  });
  figures.found = { outcome: found.status, pages: pages() };

  // The outbox: sent now (a 504: it may have gone through), then settled an hour later, by the store's clock
  // and the service's alike. Its lookup reads from before the send to now: the hour of rows since.
  let shift = 0;
  const store = memoryOutboxStore({ now: () => Date.now() + shift });
  const outbox = createPayoutOutbox({
    client,
    store,
    visibilityWaits: [0],
    // The 504's doubt is settled by the lookup an hour later (the lag counts from the POST's mark plus its span).
    listingLagMs: HOUR - 5 * 60_000,
    maxLookups: 3,
    backoff: { baseMs: 0, maxMs: 0 },
  });
  const { reference } = await outbox.enqueue(usd('proof-outbox'));
  mock.faults.next({ status: 504, match: 'POST /payouts' });
  await outbox.settle(reference);
  shift = HOUR;
  mock.settings.clockOffsetMs = HOUR;
  reset();
  const later = await outbox.settle(reference);
  figures.outbox = { outcome: later.state, pages: pages() };

  for (const [name, { outcome, pages: n }] of Object.entries(figures)) {
    console.log(`  ${name.padEnd(8)} ${String(n).padStart(4)} listing pages (${outcome})`);
  }
  console.log(
    `  (${PER_DAY.toLocaleString('en')} transactions over a day around the send; each lookup reads the failed listing, the default one, and the failed one again)`,
  );
  return figures;
}
