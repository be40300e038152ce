// Tracking many payouts at the cost of one (issue 32), against the mock on a loopback port:
//   node bench/tracking.mjs        (after npm run build; npm run bench runs it as part 8)
// For 10, 1,000 and 10,000 open payouts (sent over the last hour, USD, still processing), one shared tracker
// follows them all: the listing requests one round makes, the rows it reads, and how long it takes. Beside it,
// what following each payout with a tracker of its own costs per round (measured for 10 and 1,000; for 10,000
// the floor, 2 requests a payout: the default and failed listings, one page each at least).
// Figures only; not a test.
import { PaymentsClient } from '../dist/index.js';
import { payoutTracker } from '../dist/payouts.js';
import { DEFAULT_API_KEY, startMockServer } from '../dist/testing.js';
import { fmt } from './common.mjs';

const SIZES = [10, 1_000, 10_000];
const HOUR = 3_600_000;

/** The mock holding `count` open payouts sent over the last hour; a client whose listing requests are counted. */
async function setup(count) {
  const server = await startMockServer({ dedupeByReference: false });
  const counter = { listings: 0 };
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: server.baseUrl,
    logLevel: 'off',
    hooks: {
      onRequest: (event) => {
        if (event.method === 'GET' && event.path === '/transactions') counter.listings += 1;
      },
    },
  });
  const now = server.mock.now();
  const payouts = [];
  for (let i = 0; i < count; i++) {
    const created = new Date(now - HOUR + Math.floor((i * HOUR) / count)).toISOString();
    const row = server.mock.transactions.add({
      external_reference: `bench-${i}`,
      status: 'processing',
      source_currency: 'USD',
      destination_amount: 10_000 + i,
      created_at: created,
    });
    payouts.push({ reference: `bench-${i}`, payout: { id: row.id, created_at: row.created_at } });
  }
  return { server, client, counter, payouts };
}

/** One round of one tracker following every payout: requests, rows, milliseconds, and whether it saw each one. */
async function sharedRound(client, counter, payouts) {
  const tracker = payoutTracker(client, { poll: { minMs: 3_600_000, maxMs: 3_600_000 } });
  const seen = new Set();
  const runs = payouts.map(async ({ reference, payout }) => {
    for await (const change of tracker.track(reference, { payout })) seen.add(change.externalReference);
  });
  counter.listings = 0;
  const t0 = performance.now();
  // The first round starts as the payouts are followed: wait for it, then run a second as a steady-state one.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await tracker.round();
  const first = counter.listings;
  counter.listings = 0;
  const t1 = performance.now();
  const round = await tracker.round();
  const ms = performance.now() - t1;
  tracker.close();
  await Promise.all(runs);
  return { first, requests: round.requests, rows: round.rows, ms, seen: seen.size, startMs: t1 - t0 };
}

/** One round per payout, each followed by a tracker of its own. */
async function separateRounds(client, counter, payouts) {
  counter.listings = 0;
  for (const { reference, payout } of payouts) {
    const tracker = payoutTracker(client, { poll: { minMs: 3_600_000, maxMs: 3_600_000 } });
    const run = (async () => {
      for await (const _ of tracker.track(reference, { payout })) break;
    })();
    await run;
    tracker.close();
  }
  return counter.listings;
}

export async function trackingBench() {
  const results = [];
  for (const count of SIZES) {
    const { server, client, counter, payouts } = await setup(count);
    try {
      const shared = await sharedRound(client, counter, payouts);
      const separate = count <= 1_000 ? await separateRounds(client, counter, payouts) : undefined;
      results.push({ count, ...shared, separate });
      console.log(
        `  ${fmt(count, 0).padStart(6)} open payouts: ${fmt(shared.requests, 0)} listing requests per round ` +
          `(${fmt(shared.rows, 0)} rows read, ${fmt(shared.ms, 0)} ms; every payout seen: ${shared.seen === count}); ` +
          `a tracker per payout: ${separate === undefined ? `at least ${fmt(2 * count, 0)}` : fmt(separate, 0)} requests`,
      );
    } finally {
      await server.close();
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`tracking bench: node ${process.version}`);
  await trackingBench();
}
