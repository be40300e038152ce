/**
 * The one rule for applying an observation of a payout (issue 32): whatever order observations arrive in, and
 * however often, what is known ends the same; an older one never overwrites a newer status.
 */
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/index.js';
import { applyObservation } from '../../src/payouts/tracking/payout-life.js';
import type { PayoutLife } from '../../src/payouts/tracking/payout-status.js';

const row = (status: string, second: number, extra: Partial<Transaction> = {}): Transaction => ({
  id: 'tx-1',
  transaction_type: 'withdrawal',
  status,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: `2026-11-20T10:00:${String(second).padStart(2, '0')}.000Z`,
  ...extra,
});

const UETR = '3f2c6a0e-1b4d-4c9a-9e7f-2a1b3c4d5e6f';
const HISTORY = [
  row('processing', 1),
  row('sent', 2),
  row('completed', 3),
  row('completed', 4, { uetr: UETR, tracking_codes: { UETR } }),
  row('refunded', 5, { uetr: UETR, tracking_codes: { UETR, IMAD: '20261120QMGFT001' } }),
];

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

const applyAll = (rows: Transaction[]) =>
  rows.reduce((life: PayoutLife, r) => applyObservation(life, r).life, {});

describe('applyObservation', () => {
  it('ends in the same state whatever the order, each observation applied twice', () => {
    const expected = applyAll(HISTORY);
    expect(expected).toEqual({
      id: 'tx-1',
      status: 'refunded',
      statusAt: '2026-11-20T10:00:05.000Z',
      observedAt: '2026-11-20T10:00:05.000Z',
      uetr: UETR,
      trackingCodes: { UETR, IMAD: '20261120QMGFT001' },
    });
    for (const order of permutations(HISTORY)) {
      const life = applyAll(order.flatMap((r) => [r, r]));
      expect(life).toEqual(expected);
    }
    // Ending on a status shown twice (completed at 3, then at 4): it has held since the earlier one, in any order.
    const twice = HISTORY.slice(0, 4);
    expect(applyAll(twice).statusAt).toBe('2026-11-20T10:00:03.000Z');
    for (const order of permutations(twice)) {
      expect(applyAll(order.flatMap((r) => [r, r]))).toEqual(applyAll(twice));
    }
  });

  it('a late row of the known status takes statusAt back to it, and changes nothing else', () => {
    const { life } = applyObservation({}, row('completed', 4));
    const late = applyObservation(life, row('completed', 3));
    expect(late.changes).toEqual([]);
    expect(late.life).toEqual({ ...life, statusAt: '2026-11-20T10:00:03.000Z' });
    // An older row of another status, or a later one of the same, leaves it.
    expect(applyObservation(late.life, row('sent', 2)).life).toEqual(late.life);
    expect(applyObservation(late.life, row('completed', 5)).life.statusAt).toBe('2026-11-20T10:00:03.000Z');
  });

  it('a duplicate changes nothing; an older row adds a UETR not known yet, never an older status', () => {
    const { life } = applyObservation({}, row('completed', 3));
    expect(applyObservation(life, row('completed', 3)).changes).toEqual([]);
    expect(applyObservation(life, row('processing', 1)).changes).toEqual([]);
    const late = applyObservation(life, row('processing', 1, { uetr: UETR }));
    expect(late.changes).toEqual([
      { kind: 'uetr', status: 'completed', at: '2026-11-20T10:00:01.000Z', uetr: UETR },
    ]);
    expect(late.life.status).toBe('completed');
  });

  it('at the same instant, the status further along wins; a row of another transaction is ignored', () => {
    const { life } = applyObservation({}, row('completed', 3));
    expect(applyObservation(life, row('processing', 3)).changes).toEqual([]);
    expect(applyObservation(life, row('refunded', 3)).changes.map((c) => c.status)).toEqual(['refunded']);
    expect(applyObservation(life, { ...row('failed', 9), id: 'tx-2' }).changes).toEqual([]);
  });

  it('flags a status going back, and a UETR replaced', () => {
    const { life } = applyObservation({}, row('sent', 3, { uetr: UETR }));
    const back = applyObservation(life, row('pending', 4, { uetr: 'another' }));
    expect(back.changes.map((c) => c.anomaly)).toEqual([
      'the status went back from sent to pending',
      `the UETR changed from ${UETR} to another`,
    ]);
    expect(back.life.status).toBe('pending');
  });

  it('a final status outranks one that is not, whatever updated_at says, and the anomaly is said', () => {
    // One host stamps processing at :06, another completed at :04 (their clocks 2 s apart).
    const processing = applyObservation({}, row('processing', 6)).life;
    const completed = applyObservation(processing, row('completed', 4));
    expect(completed.changes).toEqual([
      {
        kind: 'status',
        status: 'completed',
        previous: 'processing',
        at: '2026-11-20T10:00:04.000Z',
        anomaly: expect.stringMatching(
          /^updated_at went back 2 s: .*a final status outranks one that is not$/,
        ),
      },
    ]);
    expect(completed.life).toMatchObject({
      status: 'completed',
      statusAt: '2026-11-20T10:00:04.000Z',
      observedAt: '2026-11-20T10:00:06.000Z',
    });
    // The other way round: a row stamped after completed that is not final changes nothing, said once.
    const later = applyObservation(completed.life, row('processing', 8, { uetr: UETR }));
    expect(later.life.status).toBe('completed');
    expect(later.changes.map((c) => c.kind)).toEqual(['uetr']);
    expect(later.held).toMatch(/shows processing after completed: completed is kept/);
    expect(applyObservation(later.life, row('processing', 8, { uetr: UETR })).held).toBeUndefined();
    // Between final statuses the later one wins as before.
    expect(applyObservation(completed.life, row('refunded', 9)).life.status).toBe('refunded');
  });

  it('ends in the same state whatever the order when the service stamps by clocks that differ', () => {
    const skewed = [
      row('pending', 2),
      row('processing', 6),
      row('sent', 7),
      row('completed', 4),
      row('completed', 5),
    ];
    const expected = applyAll(skewed);
    expect(expected).toMatchObject({
      status: 'completed',
      statusAt: '2026-11-20T10:00:04.000Z',
      observedAt: '2026-11-20T10:00:07.000Z',
    });
    for (const order of permutations(skewed))
      expect(applyAll(order.flatMap((r) => [r, r]))).toEqual(expected);
  });
});
