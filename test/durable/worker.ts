/**
 * One worker process of the kill trials (test/helpers/durable.ts bundles it with esbuild and runs several): an
 * outbox over PostgreSQL (`OUTBOX_PG`, one connection) or SQLite (`OUTBOX_SQLITE`, a file), settling payouts
 * against the loopback mock at `OUTBOX_BASE_URL` until SIGTERM.
 *
 * Fault points, from the parent, as `point:n` (at the n-th time this process reaches the point):
 * - `OUTBOX_KILL`: SIGKILL itself at `after-claim`, `before-post` (claim renewed, POST next), `in-flight` (a
 *   moment after the POST started), `after-post` (the answer in, nothing written) or `during-lookup`.
 * - `OUTBOX_PAUSE`: SIGSTOP itself after a claim (`after-claim:n`); the parent sends SIGCONT later.
 * - `OUTBOX_TERMINATE`: at `before-post:n`, ask the parent to end this process's database connection
 *   (`pg_terminate_backend`) and go on once it has: the claim is the row's lease, not the connection, so the
 *   POST goes, and the outcome is written on a new connection.
 * - `OUTBOX_SKEW_MS`: this process's clock (`Date.now`) runs this far off; on PostgreSQL the outbox reads the
 *   database's clock, so it must not matter.
 * - `OUTBOX_LISTING_LAG_MS`: the outbox's `listingLagMs` (the mock lists each payout within it).
 * - `OUTBOX_QUEUE=pg-boss`: payouts are settled as pg-boss jobs (the docs' queue recipe) instead of by `work()`:
 *   each job settles its payout and, while it is open, sends itself again for `nextAttemptAt`; a sweeper sends a
 *   job for every due payout (the gap between COMMIT and publishing).
 * Every step is reported on stdout as a JSON line.
 *
 * The tracking phase (`OUTBOX_TRACK`, the round's interval in ms) follows the sent payouts too, with an
 * `onFinal` that reports each call (`final`: reference, the change's seq, the status) and each delivery written
 * (`delivered`). `OUTBOX_HOOK_KILL=in-hook:n` SIGKILLs the process inside its n-th `onFinal`, after reporting it:
 * the change must be delivered again by another worker.
 */

import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { PaymentsClient } from '../../src/index.js';
import {
  createPayoutOutbox,
  type PayoutOutboxOptions,
  type PayoutOutboxStore,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/index.js';

const env = process.env;
if (env.OUTBOX_SKEW_MS) {
  const skew = Number(env.OUTBOX_SKEW_MS);
  const realNow = Date.now;
  Date.now = () => realNow() + skew;
}
const report = (event: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...event })}\n`);
const point = (name: string | undefined) => {
  const [at, n] = (name ?? '').split(':');
  return { at, n: Number(n) };
};
const kill = point(env.OUTBOX_KILL);
const pause = point(env.OUTBOX_PAUSE);
const terminate = point(env.OUTBOX_TERMINATE);
const hookKill = point(env.OUTBOX_HOOK_KILL);
const seen = new Map<string, number>();
/** Counts a pass through `at`; true when this is the pass a fault was planned for. */
const reached = (at: string, plan: { at?: string; n: number }) => {
  const count = (seen.get(at) ?? 0) + 1;
  seen.set(at, count);
  return plan.at === at && plan.n === count;
};
const die = (at: string, reference: string) => {
  report({ event: 'killed', at, reference });
  process.kill(process.pid, 'SIGKILL');
};

let store: PayoutOutboxStore<unknown>;
let pool: pg.Pool | undefined;
if (env.OUTBOX_PG) {
  // One connection, so that the one the parent terminates is the one this worker uses.
  pool = new pg.Pool({ connectionString: env.OUTBOX_PG, max: 1, application_name: 'outbox-worker' });
  // A terminated connection: the pool drops it and opens another for the next statement.
  pool.on('error', (error) => report({ event: 'db-error', message: error.message }));
  store = postgresOutboxStore({ client: pool, ...(env.OUTBOX_TABLE ? { table: env.OUTBOX_TABLE } : {}) });
} else {
  store = sqliteOutboxStore({ database: new DatabaseSync(env.OUTBOX_SQLITE!) });
}

let stdinLines: AsyncIterator<string> | undefined;
const awaitParent = async () => {
  stdinLines ??= createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  await stdinLines.next();
};

const client = new PaymentsClient({
  apiKey: DEFAULT_API_KEY,
  baseUrl: env.OUTBOX_BASE_URL!,
  logLevel: 'off',
  maxRetries: 2,
});
/** Without `OUTBOX_TRACK` no sent payout is followed, as before the tracking phase existed. */
const life: Pick<PayoutOutboxOptions, 'tracking' | 'onFinal'> = env.OUTBOX_TRACK
  ? {
      tracking: { everyMs: Number(env.OUTBOX_TRACK), afterFinalMs: 120_000, windowMarginMs: 5000 },
      onFinal: (record, change) => {
        report({ event: 'final', reference: record.reference, seq: change.seq, status: record.status });
        if (reached('in-hook', hookKill)) die('in-hook', record.reference);
      },
    }
  : { tracking: false };

const outbox = createPayoutOutbox({
  ...life,
  client,
  store,
  owner: `worker-${process.pid}`,
  timeout: 1500,
  visibilityWaits: [250, 500],
  listingLagMs: Number(env.OUTBOX_LISTING_LAG_MS),
  leaseMs: 6000,
  maxLookupPages: 50,
  backoff: { baseMs: 200, maxMs: 2000 },
  hooks: {
    afterClaim: (reference) => {
      report({ event: 'claim', reference });
      if (reached('after-claim', kill)) die('after-claim', reference);
      if (reached('after-claim#pause', { at: pause.at && `${pause.at}#pause`, n: pause.n })) {
        report({ event: 'paused', reference });
        process.kill(process.pid, 'SIGSTOP');
        report({ event: 'resumed', reference });
      }
    },
    beforeLookup: (reference) => {
      // The lookup's first request is on its way when the timer fires.
      if (reached('during-lookup', kill)) setTimeout(() => die('during-lookup', reference), 2);
    },
    beforePost: async (reference) => {
      report({ event: 'post', reference });
      if (reached('before-post', kill)) die('before-post', reference);
      if (reached('in-flight', kill)) setTimeout(() => die('in-flight', reference), 1);
      if (
        reached('before-post#terminate', { at: terminate.at && `${terminate.at}#terminate`, n: terminate.n })
      ) {
        const { rows } = await pool!.query('SELECT pg_backend_pid() AS pid');
        report({ event: 'terminate-me', backend: rows[0]!.pid, reference });
        await awaitParent();
      }
    },
    afterPost: (reference) => {
      if (reached('after-post', kill)) die('after-post', reference);
    },
    afterWrite: (reference, state) => {
      report({ event: 'write', reference, state });
    },
    afterDeliver: (reference, delivered, failed) => {
      report({ event: 'delivered', reference, delivered, failed });
    },
  },
});

const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
const onError = (error: unknown) => report({ event: 'error', message: (error as Error).message });
report({ event: 'ready' });
if (env.OUTBOX_QUEUE === 'pg-boss') {
  await settleByQueue();
} else {
  await outbox.work({ concurrency: 4, pollMs: 100, signal: stop.signal, onError });
}
await pool?.end();
report({ event: 'stopped' });

/** The docs' queue recipe on pg-boss: a job settles its payout, and sends itself again while it is open. */
async function settleByQueue() {
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: env.OUTBOX_PG!, max: 2, application_name: 'outbox-worker' });
  boss.on('error', onError);
  await boss.start();
  const publish = (reference: string, startAfter?: Date) =>
    boss.send('payout', { reference }, { singletonKey: reference, ...(startAfter ? { startAfter } : {}) });
  await boss.work<{ reference: string }>(
    'payout',
    { batchSize: 1, pollingIntervalSeconds: 0.5 },
    async ([job]) => {
      const record = await outbox.settle(job!.data.reference);
      if (record.state === 'pending' || record.state === 'sending' || record.state === 'retry') {
        await publish(record.reference, record.nextAttemptAt);
      }
    },
  );
  // A job published after COMMIT is lost if its publisher died in between: the sweeper publishes every due payout.
  const sweep = setInterval(() => {
    outbox
      .list({ due: true, limit: 1000 })
      .then((due) => Promise.all(due.map((r) => publish(r.reference))))
      .catch(onError);
  }, 1000);
  await new Promise<void>((resolve) =>
    stop.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  clearInterval(sweep);
  await boss.stop({ graceful: true });
}
