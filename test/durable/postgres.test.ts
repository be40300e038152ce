import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresOutboxStore } from '../../src/outbox/index.js';
import { runTrial } from '../helpers/durable.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

describe.runIf(postgresAvailable())('durable payouts on PostgreSQL', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });

  it('sends no payout twice and loses none while 4 worker processes are killed, paused and cut off; follows every sent payout to the status the mock holds', async () => {
    const tally = await runTrial({
      label: 'postgres',
      store: postgresOutboxStore({ client: pool }),
      workerEnv: { OUTBOX_PG: server.url },
      processes: 4,
      payouts: 210,
      seed: 2211,
      kills: 12,
      terminateBackend: async (pid) => {
        await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      },
      deadlineMs: 240_000,
      // The mock completes, fails (a fifth) and later refunds (a quarter of the completed) each payout while the
      // workers send, follow and die, some inside onFinal.
      tracking: {
        lifecycle: { completeAfterMs: 1500, failureShare: 0.2, refundShare: 0.25, refundAfterMs: 1500 },
        everyMs: 250,
        hookKills: 3,
      },
    });
    console.log(tally.line);
    expect(tally.duplicates).toBe(0);
    expect(tally.lost).toBe(0);
    expect(tally.disagreements).toEqual([]);
    expect(tally.unknownWithoutReason).toBe(0);
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
});
