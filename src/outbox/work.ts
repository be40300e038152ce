import { REQUEST_OPTION_SHAPE } from '../internal/request-options.js';
import { option, optionBag } from '../rules/option-bag.js';
import type { OutboxRound } from './follow.js';
import { aFunctionOrNull, wholeNumber } from './option-checks.js';
import { OPEN_STATES, type OutboxRow, type PayoutOutboxStore, type PayoutState } from './types.js';

/** Options of `work`. */
export interface WorkOptions {
  /** Payouts settled at once by this loop. Default 4. */
  concurrency?: number;
  /**
   * Stops the loop (a deploy's SIGTERM): no new claims; resolves once the steps in flight have finished.
   */
  signal?: AbortSignal;
  /** Milliseconds between polls when nothing is due. Default 1,000. */
  pollMs?: number;
  /**
   * `'drained'` (a cron's "settle what is due, then exit"): settle every payout due now, wait for those due within
   * `drainWithinMs` (leases of dead workers included), run a tracking round after the last of them (whichever
   * process's turn it is: what this run sent is followed, and the statuses recorded are current), then resolve
   * with a summary. Default: run until `signal`.
   */
  until?: 'drained';
  /** With `until: 'drained'`: milliseconds ahead a payout may be due and still be waited for. Default 60,000. */
  drainWithinMs?: number;
  /** A step that failed (the database unreachable, say): the loop goes on; the row's lease lapses. */
  onError?: (error: unknown) => void;
}

/** What a `work` call did, and what it left. */
export interface WorkSummary {
  /** Steps that ended in each state (a payout may take several steps). */
  settled: Partial<Record<PayoutState, number>>;
  /** Open payouts left when it returned. */
  left: number;
  /** When the earliest payout left is next due (its lease's end, when an owner holds it). */
  nextDueAt?: Date;
  /** Payouts left that another owner holds (a dead worker's until its lease lapses): who, and until when. */
  leased: Array<{ reference: string; owner: string; until: Date }>;
  /**
   * Following sent payouts: tracking rounds this process ran (another may hold the turn), the listing requests
   * and changes they made, changes whose hooks ran, and deliveries a hook threw in (delivered again later).
   */
  tracking: { rounds: number; requests: number; changes: number; delivered: number; hookFailures: number };
}

/** The options of `work`. */
const workOptions = optionBag<WorkOptions>({
  concurrency: wholeNumber(1, 1000),
  signal: REQUEST_OPTION_SHAPE.signal,
  pollMs: wholeNumber(0),
  until: option((u: unknown) => u === 'drained', "must be 'drained'"),
  drainWithinMs: wholeNumber(0),
  onError: aFunctionOrNull,
});

interface Worker {
  store: PayoutOutboxStore<unknown>;
  owner: string;
  leaseMs: number;
  /** Claims mark fresh rows (see `PayoutOutboxStore.claim`). */
  markFresh: boolean;
  run: (row: OutboxRow, readBack: boolean, claimedAt: number) => Promise<{ state: PayoutState | 'lost' }>;
  follow: Follow;
}

/** The loop's other half: tracking rounds on their schedule, and the hooks of changes observed. */
export interface Follow {
  everyMs: number | undefined;
  /** One round (undefined: another process's turn; `drained`: run it all the same); absent when tracking is off. */
  round: ((drained: boolean) => Promise<OutboxRound | undefined>) | undefined;
  claim: (limit: number) => Promise<OutboxRow[]>;
  deliver: (row: OutboxRow) => Promise<{ delivered: number; failed: boolean }>;
}

/** When an open row can next be taken: its due time, or its lease's end when that is later. */
const dueAt = (row: OutboxRow) => Math.max(row.next_attempt_at, row.lease_until ?? 0);

/**
 * The worker loop. A finished step or an abort wakes it; a wake that comes while it is busy is kept for its next
 * wait. Draining, it waits for the earliest open payout due within the bound, then claims again.
 */
export async function work(worker: Worker, options: WorkOptions | undefined): Promise<WorkSummary> {
  const given = workOptions.read(options, 'outbox.work') ?? {};
  const concurrency = given.concurrency ?? 4;
  const pollMs = given.pollMs ?? 1000;
  const drainWithinMs = given.drainWithinMs ?? 60_000;
  const { signal } = given;
  const onError = given.onError ?? ((error) => console.error('payout outbox:', error));
  const settled: Partial<Record<PayoutState, number>> = {};
  const running = new Set<Promise<unknown>>();
  let woke = false;
  let resolveWait: (() => void) | undefined;
  const wake = () => {
    woke = true;
    resolveWait?.();
  };
  const sleep = async (ms: number) => {
    if (!woke) {
      const timer = setTimeout(wake, ms);
      await new Promise<void>((resolve) => {
        resolveWait = resolve;
      });
      clearTimeout(timer);
    }
    woke = false;
    resolveWait = undefined;
  };
  signal?.addEventListener('abort', wake, { once: true });
  const task = (work: Promise<unknown>) => {
    const done: Promise<unknown> = work.catch(onError).finally(() => {
      running.delete(done);
      wake();
    });
    running.add(done);
  };
  let steps = 0;
  const start = (row: OutboxRow, claimedAt: number) =>
    task(
      worker.run(row, false, claimedAt).then(({ state }) => {
        steps += 1;
        if (state !== 'lost') settled[state] = (settled[state] ?? 0) + 1;
      }),
    );
  const drained = given.until === 'drained';
  const follow = following(worker.follow, { drained, pollMs, task, onError, steps: () => steps });
  while (!signal?.aborted) {
    const free = concurrency - running.size;
    let claimed: OutboxRow[] = [];
    const claimedAt = performance.now();
    if (free > 0) {
      try {
        claimed = await worker.store.claim(worker.owner, worker.leaseMs, undefined, free, worker.markFresh);
      } catch (error) {
        onError(error);
      }
    }
    for (const row of claimed) start(row, claimedAt);
    // As many were due as there was room for: more may be, once a slot frees.
    if (free > 0 && claimed.length === free) continue;
    const idle = running.size === 0 && claimed.length === 0;
    const followed = await follow.step(free - claimed.length, idle);
    if (running.size >= concurrency) {
      await sleep(2 ** 31 - 1);
      continue;
    }
    // Drained only if it was idle when the round was decided: a step that ended during `follow.step` (its read
    // of deliveries) settled a payout no round has seen yet; the next turn, idle, runs one (CI saw the cron exit
    // without it).
    if (given.until === 'drained' && idle && running.size === 0 && followed === 0) {
      const wait = await nextDue(worker.store, drainWithinMs);
      if (wait === undefined) break;
      await sleep(Math.max(0, Math.min(wait, pollMs || wait)));
      continue;
    }
    await sleep(Math.min(pollMs, follow.nextInMs()));
  }
  await Promise.all(running);
  return { ...(await summary(worker.store, settled)), tracking: follow.tally };
}

/**
 * When the loop runs a tracking round (on its schedule; when draining, once idle, and again after any payout
 * settled since, so that the last round sees every payout sent) and claims changes to deliver (when there is room, at most every `pollMs` unless the last
 * claim or a round found more). `step` returns the tasks it started.
 */
function following(
  follow: Follow,
  loop: {
    drained: boolean;
    pollMs: number;
    task: (work: Promise<unknown>) => void;
    onError: (e: unknown) => void;
    /** Steps finished so far. */
    steps: () => number;
  },
) {
  const tally = { rounds: 0, requests: 0, changes: 0, delivered: 0, hookFailures: 0 };
  let roundAt = 0;
  let tried = 0;
  let stepsAtRound = 0;
  let rounding = false;
  let deliverAt = 0;
  const roundDue = (idle: boolean) =>
    follow.round !== undefined &&
    !rounding &&
    Date.now() >= roundAt &&
    (!loop.drained || (idle && (tried === 0 || loop.steps() > stepsAtRound)));
  return {
    tally,
    // While a round runs, its end wakes the loop (it is a task): no need to poll for the next one.
    nextInMs: () =>
      follow.round === undefined || loop.drained || rounding
        ? Number.POSITIVE_INFINITY
        : Math.max(0, roundAt - Date.now()),
    async step(room: number, idle: boolean): Promise<number> {
      let started = 0;
      if (room > 0 && roundDue(idle)) {
        rounding = true;
        tried += 1;
        stepsAtRound = loop.steps();
        room -= 1;
        started += 1;
        const round = follow.round!(loop.drained).then((done) => {
          if (!done) return;
          tally.rounds += 1;
          tally.requests += done.requests;
          tally.changes += done.changes;
          if (done.changes > 0) deliverAt = 0;
        });
        loop.task(
          round.finally(() => {
            rounding = false;
            roundAt = Date.now() + (follow.everyMs ?? 0);
          }),
        );
      }
      if (room <= 0 || Date.now() < deliverAt) return started;
      let rows: OutboxRow[] = [];
      try {
        rows = await follow.claim(room);
      } catch (error) {
        loop.onError(error);
      }
      deliverAt = rows.length === room ? 0 : Date.now() + loop.pollMs;
      for (const row of rows) {
        loop.task(
          follow.deliver(row).then(({ delivered, failed }) => {
            tally.delivered += delivered;
            if (failed) tally.hookFailures += 1;
          }),
        );
      }
      return started + rows.length;
    },
  };
}

/** Milliseconds until the earliest open payout is due, if one is due within `withinMs`; undefined if none. */
async function nextDue(store: PayoutOutboxStore<unknown>, withinMs: number): Promise<number | undefined> {
  const now = await store.now();
  const rows = await store.list({ limit: 10_000, dueBefore: now + withinMs });
  const due = rows.map(dueAt).filter((at) => at <= now + withinMs);
  if (due.length === 0) return undefined;
  return Math.max(0, Math.min(...due) - now) + 1;
}

async function summary(
  store: PayoutOutboxStore<unknown>,
  settled: WorkSummary['settled'],
): Promise<Omit<WorkSummary, 'tracking'>> {
  const now = await store.now();
  const open: OutboxRow[] = [];
  for (const state of OPEN_STATES) open.push(...(await store.list({ state, limit: 10_000 })));
  const leased = open
    .filter((row) => row.owner !== null && row.lease_until !== null && row.lease_until > now)
    .map((row) => ({ reference: row.reference, owner: row.owner!, until: new Date(row.lease_until!) }));
  const next = open.length > 0 ? Math.min(...open.map(dueAt)) : undefined;
  return {
    settled,
    left: open.length,
    ...(next === undefined ? {} : { nextDueAt: new Date(next) }),
    leased,
  };
}
