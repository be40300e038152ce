// The outbox (payments-service-sdk/outbox) against the loopback mock (bench/outbox-server.mjs, its own process):
//   node --expose-gc bench/outbox.mjs        (after npm run build; npm run bench runs it as part 6)
// 1. settled payouts per second with 1, 4 and 16 workers (outboxes with their own owner ids) over one SQLite
//    file, NGN and USD in turn, each settled from enqueue to `created`
// 2. database round trips per payout: every store call, counted, over the payouts of part 1
// 3. heap after each 1,000 of 10,000 payouts enqueued and settled (SQLite store, collected first): flat or not
// Figures only; not a test.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { PaymentsClient } from '../dist/index.js';
import { createPayoutOutbox, sqliteOutboxStore } from '../dist/outbox.js';
import { DEFAULT_API_KEY } from '../dist/testing.js';
import { fmt, here, MB } from './common.mjs';

const BENEFICIARY = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: '0123456788',
  bankName: 'Guaranty Trust Bank',
  bankCode: '000013',
  email: 'ada@example.com',
};
const PER_RUN = 400;
const HEAP = { payouts: 10_000, every: 1_000, workers: 16 };

/** A store whose every call is counted: one call is one round trip to the database. */
function counted(store) {
  const calls = { n: 0 };
  const wrapped = Object.fromEntries(
    Object.entries(store).map(([name, fn]) => [
      name,
      (...args) => {
        calls.n += 1;
        return fn(...args);
      },
    ]),
  );
  return { store: wrapped, calls };
}

function startServer() {
  const child = fork(here('./outbox-server.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise((resolve, reject) => {
    child.once('message', ({ baseUrl }) => resolve(baseUrl));
    child.once('exit', (code) => reject(new Error(`outbox bench server exited early (${code})`)));
  });
  return { child, ready };
}

async function enqueue(outbox, count, offset) {
  for (let i = 0; i < count; i++) {
    const currency = (offset + i) % 2 ? 'USD' : 'NGN';
    await outbox.enqueue({ amount: 100 + ((offset + i) % 900), currency, beneficiary: BENEFICIARY });
  }
}

const OPEN = ['pending', 'sending', 'retry'];

/**
 * `workers` outboxes over one store, each settling one payout at a time, until every payout is final: a payout
 * a loaded machine timed out waits for its retry (`nextAttemptAt`) and is settled then.
 */
async function settleAll(client, store, workers) {
  const outboxes = Array.from({ length: workers }, (_, i) =>
    createPayoutOutbox({
      client,
      store,
      owner: `bench-${i}`,
      timeout: 10_000,
      visibilityWaits: [200],
      backoff: { baseMs: 100, maxMs: 1000 },
      // The send path alone: following sent payouts is part 8's (bench/tracking.mjs).
      tracking: false,
    }),
  );
  for (;;) {
    await Promise.all(
      outboxes.map((outbox) =>
        outbox.work({ concurrency: 1, until: 'drained', drainWithinMs: 0, pollMs: 10 }),
      ),
    );
    const open = await Promise.all(OPEN.map((state) => store.list({ state, limit: 1 })));
    if (open.every((rows) => rows.length === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const FINAL = ['created', 'recovered', 'refused', 'not_sent', 'unknown'];

/** Payouts by final state; `moved`: created, or recovered after a timed-out answer. */
async function tally(outbox) {
  const counts = {};
  for (const state of FINAL) counts[state] = (await outbox.list({ state, limit: 10_000 })).length;
  return { moved: counts.created + counts.recovered, recovered: counts.recovered, counts };
}

export async function outboxBench() {
  const { child, ready } = startServer();
  const dir = mkdtempSync(join(tmpdir(), 'outbox-bench-'));
  const results = { rates: {}, roundTrips: 0, heapMb: [] };
  try {
    const baseUrl = await ready;
    const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl, logLevel: 'off' });
    for (const workers of [1, 4, 16]) {
      const database = new DatabaseSync(join(dir, `rate-${workers}.db`));
      const { store, calls } = counted(sqliteOutboxStore({ database }));
      await store.migrate();
      const outbox = createPayoutOutbox({ client, store, visibilityWaits: [200] });
      await enqueue(outbox, PER_RUN, 0);
      calls.n = 0;
      const t0 = performance.now();
      await settleAll(client, store, workers);
      const seconds = (performance.now() - t0) / 1000;
      const { moved } = await tally(outbox);
      if (moved !== PER_RUN) console.log(`  (${PER_RUN - moved} of ${PER_RUN} ended in another final state)`);
      results.rates[workers] = PER_RUN / seconds;
      // Enqueue's insert is one more per payout; draining ends with one empty claim per worker.
      results.roundTrips = Math.max(results.roundTrips, calls.n / PER_RUN + 1);
      console.log(
        `  ${String(workers).padStart(2)} worker(s): ${fmt(PER_RUN / seconds, 0)} payouts/s settled ` +
          `(${PER_RUN} in ${fmt(seconds, 2)} s), ${fmt(calls.n / PER_RUN + 1, 2)} database round trips per payout ` +
          '(insert, claim, mark, write)',
      );
      database.close();
    }

    const database = new DatabaseSync(join(dir, 'heap.db'));
    const store = sqliteOutboxStore({ database });
    await store.migrate();
    const outbox = createPayoutOutbox({ client, store, visibilityWaits: [200] });
    const heap = () => {
      globalThis.gc?.();
      return process.memoryUsage().heapUsed / MB;
    };
    const base = heap();
    for (let done = 0; done < HEAP.payouts; done += HEAP.every) {
      await enqueue(outbox, HEAP.every, done);
      await settleAll(client, store, HEAP.workers);
      results.heapMb.push(heap() - base);
      const mb = results.heapMb.at(-1);
      console.log(
        `  heap after ${fmt(done + HEAP.every, 0)} payouts: ${mb >= 0 ? '+' : ''}${mb.toFixed(1)} MB`,
      );
    }
    // On a loaded machine some answers time out: those payouts are looked up, and an NGN one whose absence the
    // listing cannot prove within maxLookupPages ends `unknown` (never sent twice). Reported, not hidden.
    const { moved, recovered, counts } = await tally(outbox);
    console.log(
      `  ${fmt(moved, 0)} of ${fmt(HEAP.payouts, 0)} payouts moved (${recovered} recovered after a timed-out answer); final states ${JSON.stringify(counts)}`,
    );
    const mb = results.heapMb.map((m) => `${m >= 0 ? '+' : ''}${m.toFixed(1)}`).join(' ');
    console.log(
      `  heap over ${fmt(HEAP.payouts, 0)} payouts (MB after each ${fmt(HEAP.every, 0)}, from the start): ${mb}`,
    );
    database.close();
  } finally {
    child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    `outbox bench: node ${process.version}${globalThis.gc ? '' : ' (run with --expose-gc for the heap figures)'}`,
  );
  await outboxBench();
}
