/**
 * The tracking phase of the kill trials (issue 32): while the workers send, and after, the mock moves each payout
 * through its life (completed, failed for a share, refunded later for a share), and the workers follow them
 * with tracking rounds and an `onFinal` hook; some die inside that hook. The phase is over when the mock has
 * given every payout its fate and every sent record holds the mock's status with its hooks delivered. The
 * waiting is on the workers' reports; the mock's fates are read from its seed, never from a clock.
 */

import type { OutboxRow, PayoutOutboxStore } from '../../src/outbox/index.js';
import type { PaymentsMock } from '../../src/testing/index.js';
import type { PayoutLifecycle } from '../../src/testing/lifecycle.js';
import { rngFor } from '../../src/testing/random.js';

export interface TrackingTrial {
  /** The mock's schedule of a payout's life (`completeAfterMs` is needed: every payout must reach a fate). */
  lifecycle: PayoutLifecycle & { completeAfterMs: number };
  /** Each worker's tracking round interval, ms. */
  everyMs: number;
  /** Worker starts planned to die inside an `onFinal` (at their 1st to 3rd call). */
  hookKills: number;
}

export interface TrackingTally {
  /** Records whose payout was sent (created or recovered). */
  sent: number;
  /** Their statuses at the end. */
  statuses: Record<string, number>;
  /** Records whose status is not the one the mock holds. */
  wrongStatus: string[];
  /** Changes observed whose hooks never ran to the end. */
  undelivered: number;
  /** Final changes `onFinal` never ran for. */
  finalMissing: string[];
  /** Final changes `onFinal` ran for more than once (a worker died in it, or outlived its lease). */
  finalTwice: number;
  /** Final changes in all. */
  finals: number;
  line: string;
}

const sent = (row: OutboxRow) => row.state === 'created' || row.state === 'recovered';
const idOf = (row: OutboxRow) => row.transaction_id ?? row.result?.payout?.id ?? row.result?.transaction?.id;

/** A small seeded generator (mulberry32), apart from the trial's own so its draws stay as they were. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The tracking phase of one trial: the mock's schedule set, the workers' environment, their reports, the tally. */
export function trackingPhase(options: {
  trial: TrackingTrial;
  seed: number;
  mock: PaymentsMock;
  store: PayoutOutboxStore<unknown>;
}) {
  const { trial, seed, mock, store } = options;
  mock.settings.lifecycle = trial.lifecycle;
  const random = rng(seed + 32);
  let hookKillsLeft = trial.hookKills;
  const calls = new Map<string, number>();
  /** The status the mock's schedule leaves a payout in: drawn as the mock draws it, from the seed and its id. */
  const fate = (id: string) => {
    const draw = rngFor(seed, id);
    const fails = draw.next() < (trial.lifecycle.failureShare ?? 0);
    const refunded = draw.next() < (trial.lifecycle.refundShare ?? 0);
    return fails ? 'failed' : refunded ? 'refunded' : 'completed';
  };
  let waiting = 'the phase has not been checked yet';
  const ledger = () =>
    new Map(
      mock
        .account()
        .transactions.filter((t) => t.row.transaction_type === 'withdrawal')
        .map((t) => [t.row.id, t.row.status]),
    );

  return {
    /** What the phase last waited for, for a trial that runs out of time. */
    waiting: () => waiting,

    /**
     * A worker's environment: rounds, and for a few an `onFinal` they die in: only workers with no other fault
     * planned (`planned`, the environment the trial gave them), so each planned fault is reached as before.
     */
    workerEnv(planned: Record<string, string>): Record<string, string> {
      const env: Record<string, string> = { OUTBOX_TRACK: String(trial.everyMs) };
      const faulty = ['OUTBOX_KILL', 'OUTBOX_PAUSE', 'OUTBOX_TERMINATE'].some((name) => planned[name]);
      if (!faulty && hookKillsLeft > 0) {
        hookKillsLeft -= 1;
        env.OUTBOX_HOOK_KILL = `in-hook:${1 + Math.floor(random() * 3)}`;
      }
      return env;
    },

    /** A worker's report: each `onFinal` call counted by payout and change. */
    onEvent(event: { event: string; reference?: string; seq?: number }): void {
      if (event.event !== 'final') return;
      const key = `${event.reference}#${event.seq}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
    },

    /**
     * Whether the mock has given every sent record's payout its fate, and the record holds it with its hooks run.
     * (The seeded history, and payouts no record says were sent, are not the phase's.)
     */
    async settled(references: string[]): Promise<boolean> {
      const statuses = ledger();
      for (const reference of references) {
        const row = await store.get(reference);
        if (!row || !sent(row)) continue;
        const id = idOf(row);
        const held = id === undefined ? undefined : statuses.get(id);
        if (id === undefined || held !== fate(id)) {
          waiting = `the mock's payout ${reference} is ${held}, its fate ${id && fate(id)}`;
          return false;
        }
        if (row.status !== held || row.observed !== row.delivered) {
          waiting = `${reference} is ${row.status} (${row.delivered}/${row.observed} delivered), the mock holds ${held}`;
          return false;
        }
      }
      return true;
    },

    async tally(references: string[], killedInHook: number): Promise<TrackingTally> {
      const statuses = ledger();
      const tally: TrackingTally = {
        sent: 0,
        statuses: {},
        wrongStatus: [],
        undelivered: 0,
        finalMissing: [],
        finalTwice: 0,
        finals: 0,
        line: '',
      };
      for (const reference of references) {
        const row = (await store.get(reference))!;
        if (!sent(row)) continue;
        tally.sent += 1;
        const status = row.status ?? '(none)';
        tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
        const id = idOf(row);
        if (id === undefined || row.status !== statuses.get(id)) {
          tally.wrongStatus.push(`${reference}: ${status}, the mock holds ${id && statuses.get(id)}`);
        }
        tally.undelivered += row.observed - row.delivered;
        for (const change of row.changes.filter((c) => c.kind === 'status' && c.final)) {
          tally.finals += 1;
          const n = calls.get(`${reference}#${change.seq}`) ?? 0;
          if (n === 0) tally.finalMissing.push(`${reference}#${change.seq} (${change.status})`);
          if (n > 1) tally.finalTwice += 1;
        }
      }
      const ended = Object.entries(tally.statuses)
        .map(([s, n]) => `${s} ${n}`)
        .join(', ');
      tally.line =
        `tracking: ${tally.sent} sent payouts ended ${ended}; status as the mock holds it ${tally.sent - tally.wrongStatus.length}/${tally.sent}; ` +
        `onFinal ran for ${tally.finals - tally.finalMissing.length}/${tally.finals} final changes, twice for ${tally.finalTwice}; ` +
        `undelivered ${tally.undelivered}; workers killed in a hook ${killedInHook}`;
      return tally;
    },
  };
}
