import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteOutboxStore } from '../../src/outbox/index.js';
import { runTrial } from '../helpers/durable.js';

describe('durable payouts on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-durable-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sends no payout twice and loses none while 3 worker processes on one file are killed and paused, against a range on updated_at, remarks listed cut short and amounts net of the fee; follows every sent payout to the status the mock holds', async () => {
    const file = join(dir, 'outbox.db');
    const tally = await runTrial({
      label: 'sqlite',
      store: sqliteOutboxStore({ database: new DatabaseSync(file) }),
      workerEnv: { OUTBOX_SQLITE: file },
      processes: 3,
      payouts: 210,
      seed: 3311,
      kills: 9,
      // Rows sharing timestamps across page boundaries. (A worker with its own clock is no trial here: SQLite is one
      // machine, every process reading one clock, which leases depend on.)
      ties: true,
      deadlineMs: 120_000,
      // Each payout listed up to 2 s late; a range on updated_at, the long remarks listed to their first 64
      // characters, amounts net of the fee, and the rows stamped by a clock a minute behind Date.
      listingLagMs: 2000,
      invented: { dateRangeField: 'updated_at', listedRemarkLength: 64, netOfFee: true },
      rowClockOffsetMs: -60_000,
      longRemarks: true,
      // The mock completes, fails (a fifth) and later refunds (a quarter of the completed) each payout while the
      // workers send, follow and die, some inside onFinal.
      tracking: {
        lifecycle: { completeAfterMs: 1500, failureShare: 0.2, refundShare: 0.25, refundAfterMs: 1500 },
        everyMs: 250,
        hookKills: 2,
      },
    });
    console.log(tally.line);
    expect(tally.duplicated).toEqual([]);
    expect(tally.duplicates).toBe(0);
    expect(tally.lost).toBe(0);
    expect(tally.disagreements).toEqual([]);
    expect(tally.unknownWithoutReason).toBe(0);
    expect(tally.edgeRemarksRefused).toBe(5);
    expect(tally.unexpectedExits).toBe(0);
    // Every sent record ends with the status the mock holds, its hooks run; onFinal ran at least once per final
    // change (how many twice is printed in the line).
    expect(tally.tracking?.wrongStatus).toEqual([]);
    expect(tally.tracking?.finalMissing).toEqual([]);
    expect(tally.tracking?.undelivered).toBe(0);
    expect(tally.tracking?.sent).toBeGreaterThan(150);
    expect(tally.pausedLost).toBe(true);
    // How many planned kills are reached depends on how fast the payouts drain (a worker may finish before its
    // kill point, and a lookup happens only after a fault), so the count is printed; the proof is the ledger.
    expect(Object.values(tally.killed).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
  }, 300_000);
});
