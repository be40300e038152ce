import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresOutboxStore } from '../../src/outbox/index.js';
import { runTrial, type Tally } from '../helpers/durable.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

/** What every trial must show: no payout twice, none lost, every final state agreeing with the ledger. */
function holds(tally: Tally) {
  console.log(tally.line);
  expect(tally.duplicated).toEqual([]);
  expect(tally.duplicates).toBe(0);
  expect(tally.lost).toBe(0);
  expect(tally.disagreements).toEqual([]);
  expect(tally.unknownWithoutReason).toBe(0);
  expect(tally.edgeRemarksRefused).toBe(5);
}

describe.runIf(postgresAvailable())('durable payouts on PostgreSQL', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
    // Chaos ends connections of this pool too; the pool replaces them.
    pool.on('error', () => {});
  });
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });
  const terminate = async (pid: number) => {
    await pool.query('SELECT pg_terminate_backend($1)', [pid]);
  };

  it('sends no payout twice and loses none while 4 worker processes are killed, paused and cut off, with ties, a skewed clock, remarks listed cut short, amounts net of the fee and rows stamped 3 days ahead; follows every sent payout to the status the mock holds', async () => {
    const tally = await runTrial({
      label: 'postgres',
      store: postgresOutboxStore({ client: pool }),
      workerEnv: { OUTBOX_PG: server.url },
      processes: 4,
      payouts: 210,
      seed: 2211,
      kills: 12,
      terminateBackend: terminate,
      ties: true,
      // A VM restored from a snapshot: the worker's clock two days behind. The outbox reads the database's clock.
      skewMs: -172_800_000,
      deadlineMs: 150_000,
      // Each payout listed up to 2 s late; remarks listed to their first 32 characters (the outbox's own remarks,
      // its references, too), amounts net of the fee, and the rows stamped by a clock 3 days ahead of Date.
      listingLagMs: 2000,
      invented: { listedRemarkLength: 32, netOfFee: true },
      rowClockOffsetMs: 3 * 86_400_000,
      // The mock completes, fails (a fifth) and later refunds (a quarter of the completed) each payout while the
      // workers send, follow and die, some inside onFinal.
      tracking: {
        lifecycle: { completeAfterMs: 1500, failureShare: 0.2, refundShare: 0.25, refundAfterMs: 1500 },
        everyMs: 250,
        hookKills: 3,
      },
    });
    holds(tally);
    // Every sent record ends with the status the mock holds, its hooks run; onFinal ran at least once per final
    // change (how many twice is printed in the line).
    expect(tally.tracking?.wrongStatus).toEqual([]);
    expect(tally.tracking?.finalMissing).toEqual([]);
    expect(tally.tracking?.undelivered).toBe(0);
    expect(tally.tracking?.sent).toBeGreaterThan(150);
    expect(tally.pausedLost).toBe(true);
    expect(tally.terminated).toBe(true);
    // How many planned kills are reached depends on how fast the payouts drain (a worker may finish before its
    // kill point, and a lookup happens only after a fault), so the count is printed; the proof is the ledger.
    expect(Object.values(tally.killed).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it('keeps every worker running through database restarts, every connection ended, and a pool that cannot connect for 10 s, against a range on updated_at', async () => {
    const tally = await runTrial({
      label: 'postgres chaos',
      store: postgresOutboxStore({ client: pool, table: 'chaos_outbox' }),
      workerEnv: { OUTBOX_PG: server.url, OUTBOX_TABLE: 'chaos_outbox' },
      processes: 4,
      payouts: 300,
      seed: 4411,
      kills: 6,
      terminateBackend: terminate,
      chaos: [
        { name: 'pg_ctl restart -m fast', atFinals: 40, run: () => server.restart('fast') },
        {
          name: 'pg_terminate_backend of every worker connection',
          atFinals: 100,
          run: async () => {
            await pool.query(
              `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'outbox-worker'`,
            );
          },
        },
        { name: 'pg_ctl restart -m immediate', atFinals: 160, run: () => server.restart('immediate') },
      ],
      blocked: { port: server.port, ms: 10_000 },
      deadlineMs: 150_000,
      // Each payout listed up to 2 s late; a range on updated_at, the long remarks listed to 64 characters.
      listingLagMs: 2000,
      invented: { dateRangeField: 'updated_at', listedRemarkLength: 64 },
      // Their status moves on while they are looked up, so updated_at moves past later payouts' created_at.
      lifecycle: { completeAfterMs: 1500, failureShare: 0.2, refundShare: 0.25, refundAfterMs: 1500 },
      longRemarks: true,
    });
    holds(tally);
    expect(tally.chaos.count).toBe(3);
    // Woken after the chaos, on a connection the database closed while it slept: it stopped without sending.
    expect(tally.pausedLost || tally.pausedFailed).toBe(true);
    expect(tally.unexpectedExits).toBe(0);
  }, 300_000);

  it('the queue recipe on pg-boss: jobs settle payouts, reschedule by nextAttemptAt, and survive the kills, against a range on updated_at and amounts net of the fee', async () => {
    const tally = await runTrial({
      label: 'postgres pg-boss',
      store: postgresOutboxStore({ client: pool, table: 'queued_outbox' }),
      workerEnv: { OUTBOX_PG: server.url, OUTBOX_TABLE: 'queued_outbox' },
      processes: 4,
      payouts: 150,
      seed: 5511,
      kills: 8,
      queue: { url: server.url },
      // It settles in 60-75 s (the paused worker holds its job until the 30 s wake); room for a slower machine.
      deadlineMs: 240_000,
      // Each payout listed up to 2 s late; a range on updated_at, amounts net of the fee, the long remarks listed
      // to 64 characters.
      listingLagMs: 2000,
      invented: { dateRangeField: 'updated_at', listedRemarkLength: 64, netOfFee: true },
      lifecycle: { completeAfterMs: 1500, failureShare: 0.2, refundShare: 0.25, refundAfterMs: 1500 },
      longRemarks: true,
    });
    holds(tally);
    expect(tally.unexpectedExits).toBe(0);
  }, 300_000);
});
