/**
 * Drained means followed, on the real stores: each cron-style `work({ until: 'drained' })` (a process of its own,
 * a new owner each time) runs a tracking round before it returns, whoever ran the last one, so the statuses
 * recorded are current; and a reconciliation tells a record that is only behind the listing (recorded
 * `processing`, listed `completed`) apart from a real difference: its row says it is stale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutOutboxStore,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { clientFor } from '../helpers/mock.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const HOUR = 3_600_000;

async function cronRuns(store: PayoutOutboxStore<unknown>) {
  await store.migrate();
  const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
  const client = clientFor(mock, { fetch: mock.fetch });
  /** One cron run: a process of its own, with an owner of its own. */
  const cron = (owner: string) =>
    createPayoutOutbox({ client, store, owner, timeout: 2000, visibilityWaits: [0], listingLagMs: 0 });
  const references = ['cron-a', 'cron-b', 'cron-c'];
  for (const externalReference of references) {
    await cron('app').enqueue({
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference,
    });
  }
  const first = await cron('cron-1').work({ until: 'drained', drainWithinMs: 0 });
  expect(first.settled).toEqual({ created: 3 });
  expect(first.tracking.rounds).toBe(1);
  for (const reference of references) {
    expect((await cron('cron-1').get(reference))!.status).toBe('processing');
  }

  // The service completes two of them; the next run sends nothing, and follows them all the same.
  mock.transactions.setStatus('cron-a', 'completed');
  mock.transactions.setStatus('cron-b', 'failed');
  const second = await cron('cron-2').work({ until: 'drained', drainWithinMs: 0 });
  expect(second.tracking.rounds).toBe(1);
  const outbox = cron('cron-2');
  expect((await outbox.get('cron-a'))!.status).toBe('completed');
  expect((await outbox.get('cron-b'))!.status).toBe('failed');
  const period = { from: new Date(Date.now() - HOUR), to: new Date(Date.now() + HOUR) };
  const clean = await outbox.reconcile(period);
  expect(clean).toMatchObject({ complete: true, rows: [] });

  // Completed after the last round: the record is behind, not different, and the row says so.
  mock.transactions.setStatus('cron-c', 'completed');
  const behind = await outbox.reconcile(period);
  expect(behind.rows).toMatchObject([
    { kind: 'status', reference: 'cron-c', expected: 'processing', listed: 'completed', stale: true },
  ]);
  // A real difference is not: a final status the listing shows otherwise, an amount.
  mock.transactions.setStatus('cron-a', 'refunded');
  const row = mock.account().transactions.find((t) => t.row.external_reference === 'cron-b')!;
  row.row.destination_amount += 1;
  const differs = await outbox.reconcile(period);
  const kinds = differs.rows.map((r) => [r.kind, r.reference, r.stale ?? false]);
  expect(kinds.sort()).toEqual([
    ['amount', 'cron-b', false],
    ['status', 'cron-a', false],
    ['status', 'cron-c', true],
  ]);
  // The next drained run brings the stale one up to date: no longer reported.
  await cron('cron-3').work({ until: 'drained', drainWithinMs: 0 });
  const after = await outbox.reconcile(period);
  expect(after.rows.map((r) => r.reference).sort()).toEqual(['cron-a', 'cron-b']);
}

describe('sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-drained-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('each drained run follows what is sent; reconciliation tells stale from different', async () => {
    const database = new DatabaseSync(join(dir, 'outbox.db'));
    try {
      await cronRuns(sqliteOutboxStore({ database }));
    } finally {
      database.close();
    }
  });
});

describe.runIf(postgresAvailable())('postgres', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });
  it('each drained run follows what is sent; reconciliation tells stale from different', async () => {
    await cronRuns(postgresOutboxStore({ client: pool }));
  });
});

it('a drained run still follows when its last payout settles while it looks for changes to deliver', async () => {
  // CI saw `work --until drained` exit without its round: the loop, with a step in flight, looked for changes to
  // deliver; the step ended during that read, and the loop took "nothing running, nothing claimed, nothing
  // followed" for drained. Here the step's POST waits for that read, and the read for the step's write.
  const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
  const client = clientFor(mock, { fetch: mock.fetch });
  const inner = memoryOutboxStore();
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { open, opened };
  };
  const reading = gate();
  const written = gate();
  let reads = 0;
  const store: PayoutOutboxStore<unknown> = {
    ...inner,
    async claimDeliveries(owner, leaseMs, limit) {
      reads += 1;
      // The loop's first read comes with the claim; the second, while the step is in flight, is the one.
      if (reads === 2) {
        reading.open();
        await written.opened;
        // The step's task ends a few turns after its write: let it.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return inner.claimDeliveries(owner, leaseMs, limit);
    },
  };
  const outbox = createPayoutOutbox({
    client,
    store,
    timeout: 2000,
    visibilityWaits: [0],
    listingLagMs: 0,
    hooks: { beforePost: () => reading.opened, afterWrite: () => written.open() },
  });
  await outbox.enqueue({
    amount: '10.00',
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference: 'last',
  });
  const summary = await outbox.work({ until: 'drained', drainWithinMs: 0, pollMs: 5 });
  expect(summary.settled).toEqual({ created: 1 });
  expect(summary.tracking.rounds).toBe(1);
  expect((await outbox.get('last'))!.status).toBe('processing');
});
