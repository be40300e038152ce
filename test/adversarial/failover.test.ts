/**
 * Issue 29, case 6: a failover can erase the record of a send. Real processes: a PostgreSQL primary, an
 * asynchronous standby (streaming replication's default), a worker whose POST is in flight when the primary
 * dies, and a promotion. The standby never received the mark ("sending", one send), so on the promoted server
 * the row says "never sent". Today's store refuses to start on such a primary unless told to look every payout up
 * before its first POST; with that, the next worker finds the payout instead of sending it again.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { createPayoutOutbox, OutboxEnvironmentError, postgresOutboxStore } from '../../src/outbox/index.js';
import { DEFAULT_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, startStandby, type TestPostgres } from '../helpers/postgres.js';

/** Waits for a condition of real processes, re-checked every 50 ms; fails after `ms`. */
async function until(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const one = async (pool: pg.Pool, sql: string) => (await pool.query(sql)).rows[0] as Record<string, unknown>;

describe.runIf(postgresAvailable())('a failover that loses the mark of a send', () => {
  let primary: TestPostgres;
  let standby: TestPostgres;
  let service: MockServer;
  let onPrimary: pg.Pool;
  let onStandby: pg.Pool;
  beforeAll(async () => {
    primary = await startPostgres({ replicas: true });
    standby = await startStandby(primary);
    service = await startMockServer({ dedupeByReference: false });
    onPrimary = new pg.Pool({ connectionString: primary.url, max: 2 });
    onPrimary.on('error', () => {});
    onStandby = new pg.Pool({ connectionString: standby.url, max: 2 });
    onStandby.on('error', () => {});
    await until(
      async () => Number((await one(onPrimary, 'SELECT count(*) AS n FROM pg_stat_replication')).n) === 1,
      'the standby to stream',
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled([onPrimary?.end(), onStandby?.end()]);
    await service?.close();
    standby?.stop();
    primary?.stop();
  });

  it('the store refuses to start on a primary with an asynchronous standby, and says what would make it safe', async () => {
    const error = await rejection(postgresOutboxStore({ client: onPrimary }).migrate());
    expect(error).toBeInstanceOf(OutboxEnvironmentError);
    expect((error as Error).message).toMatch(
      /standby\(s\) replicate asynchronously.*synchronous replication \(or one node\), or pass lookupBeforeFirstSend: true/,
    );
  });

  it('with lookupBeforeFirstSend, the payout whose mark the failover lost is found, not sent a second time', async () => {
    const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: service.baseUrl, logLevel: 'off' });
    // No listing lag here: the first owner's lookup-first proof counts once an unrecorded POST would have ended.
    const options = { client, timeout: 1500, visibilityWaits: [0, 100], leaseMs: 60_000, listingLagMs: 0 };
    const before = createPayoutOutbox({
      ...options,
      store: postgresOutboxStore({ client: onPrimary, lookupBeforeFirstSend: true }),
      hooks: { beforePost: () => markedNow() },
    });
    let markedNow!: () => void;
    const marked = new Promise<void>((resolve) => {
      markedNow = resolve;
    });
    await postgresOutboxStore({ client: onPrimary, lookupBeforeFirstSend: true }).migrate();
    const { reference } = await before.enqueue({
      amount: '25000.00',
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      remark: 'Failover invoice 1',
    });
    // The standby has the row, then stops receiving: what the primary commits from now on, it never sees.
    await until(async () => {
      const { lsn } = await one(onPrimary, 'SELECT pg_current_wal_lsn()::text AS lsn');
      const { replayed } = await one(
        onStandby,
        `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS replayed`,
      );
      return replayed === true;
    }, 'the standby to replay the enqueue');
    await onStandby.query(`ALTER SYSTEM SET primary_conninfo = ''`);
    await onStandby.query('SELECT pg_reload_conf()');
    await until(
      async () => Number((await one(onPrimary, 'SELECT count(*) AS n FROM pg_stat_replication')).n) === 0,
      'the standby to disconnect',
    );

    // A worker marks the row (on the primary only) and POSTs; the service takes the payout and the answer hangs.
    service.mock.faults.hangAfterCommit('POST /payouts');
    const inFlight = before.settle(reference).catch((error: unknown) => error);
    // A step that ends before its POST (a read timed out under load) says so, rather than waiting out the test.
    await Promise.race([
      marked,
      inFlight.then((ended) => {
        throw new Error(`the step ended before its POST: ${String((ended as Error)?.message ?? ended)}`);
      }),
    ]);
    await until(
      async () => service.mock.account().transactions.some((t) => t.row.description === 'Failover invoice 1'),
      'the POST to reach the service',
    );
    primary.halt('immediate');
    standby.promote();
    await inFlight;

    // The promoted server says the payout was never sent: the mark was lost with the primary.
    const row = await one(
      onStandby,
      `SELECT state, sends FROM payout_outbox WHERE reference = '${reference}'`,
    );
    expect(row).toEqual({ state: 'pending', sends: 0 });
    const after = createPayoutOutbox({
      ...options,
      store: postgresOutboxStore({ client: onStandby, lookupBeforeFirstSend: true }),
    });
    const record = await after.settle(reference);
    expect(record.state).toBe('recovered');
    const paid = service.mock
      .account()
      .transactions.filter((t) => t.row.description === 'Failover invoice 1');
    expect(paid).toHaveLength(1);
  }, 120_000);
});
