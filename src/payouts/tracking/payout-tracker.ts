import { parseRequest } from '../../rules/schema.js';
import { type Transaction, TransactionSchema } from '../../rules/transactions.js';
import { askedWaitMs, isRefusal } from '../payout-answers.js';
import type { ListTransactions } from '../proof/listing-proof.js';
import { applyObservation } from './payout-life.js';
import { type LifeChange, type PayoutLife, PayoutNotFinalError } from './payout-status.js';
import type { PayoutChange, PayoutTrackerOptions, TrackingRound, TrackOptions } from './tracker-options.js';
import { type Followed, matcher, readRound, roundLine } from './tracker-round.js';
import { trackerSettings, trackSettings } from './tracker-settings.js';
import { Subscriber, type Track } from './tracker-subscriber.js';

/** A payout followed: how a round finds it, what is known of it, and the `track` calls listening. */
export interface Entry extends Followed {
  life: PayoutLife;
  /** The row that last changed it. */
  row?: Transaction;
  /** Why the last round may have missed its row (a clock of ours the service's could not be compared with). */
  doubt?: string | undefined;
  subs: Set<Subscriber>;
}

type Settings = ReturnType<typeof trackerSettings>;

/** What a tracker needs of the client: the listing, and which currencies' references the service assigns. */
export interface TrackerDeps {
  /** `client.transactions.list`. */
  list: ListTransactions;
  /** `client.payouts.assignsReference`. */
  assigns: (currency: string) => boolean;
  /**
   * The client's logger: anomalies in a payout's life at `warn` (a status going back, clocks that differ), each
   * round at `info`.
   */
  log?: (level: 'warn' | 'info', message: string) => void;
}

/**
 * Follows any number of payouts to a final status at the cost of one listing window per round (see
 * `tracker-round.ts`), and takes transactions from anywhere else (`observe`: a webhook handler, an export) in
 * any order. Rounds run while a payout is followed, on the poll schedule; none run when nothing is. A payout
 * added to an idle tracker starts a round at once; one added while rounds go on joins the next. See
 * docs/payout-lifecycle.md.
 */
export class PayoutTracker {
  readonly #deps: TrackerDeps;
  readonly #settings: Settings;
  readonly #entries = new Map<string, Entry>();
  /** The next round, when one is scheduled; undefined when none is (with none running: idle). */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the scheduled round runs, and the earliest any may (the service's `Retry-After`), epoch ms. */
  #dueAt = 0;
  #notBefore = 0;
  #running: Promise<TrackingRound> | undefined;
  /** A payout was added while a round ran: the next round is at most `minMs` away. */
  #again = false;
  #delay: number | undefined;
  #last: TrackingRound | undefined;

  /**
   * Only `payoutTracker(client)` makes one (through `InternalPayoutTracker`), so the constructor is private.
   * Options are checked here: a bad one is a `RequestValidationError` naming it.
   */
  private constructor(deps: TrackerDeps, options: PayoutTrackerOptions = {}) {
    this.#deps = deps;
    this.#settings = trackerSettings(options);
  }

  /** Payouts followed now. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The changes of one payout as they are seen, the status first: status changes, its UETR and tracking codes.
   * Ends after a final status (or `afterFinalMs` later); throws `PayoutNotFinalError` at `totalTimeout` and
   * `APIUserAbortError` when `signal` aborts. Options are checked here (a `RequestValidationError` naming the
   * option), before anything is read.
   */
  track(externalReference: string, options: TrackOptions = {}): AsyncIterable<PayoutChange> {
    const track = trackSettings(externalReference, options, this.#deps.assigns);
    return this.#follow(externalReference, track);
  }

  /** Resolves with the row that showed the payout's first final status; see `track` for the options. */
  async waitForFinal(externalReference: string, options: TrackOptions = {}): Promise<Transaction> {
    let status: string | undefined;
    for await (const change of this.track(externalReference, { ...options, afterFinalMs: 0 })) {
      if (change.final && change.kind === 'status') return change.transaction;
      status = change.status;
    }
    throw new PayoutNotFinalError(externalReference, status, 'the tracker was closed');
  }

  /**
   * Applies a transaction from any source to the payout it is (by id, reference or match), in any order and any
   * number of times: an older one never overwrites a newer status, and a duplicate changes nothing. Returns
   * the changes it made (by the tracker's final set); each `track` of the payout yields them too.
   */
  observe(transaction: Transaction): PayoutChange[] {
    const row = parseRequest(TransactionSchema, transaction, ['transaction']) as Transaction;
    return matcher(this.#entries.values())(row).flatMap((entry) =>
      this.#apply(entry, row).map((change) => ({
        ...change,
        externalReference: entry.ref,
        final: this.#settings.final.has(change.status),
        afterFinal: change.kind === 'status' && this.#settings.final.has(change.previous ?? ''),
        transaction: row,
      })),
    );
  }

  /** Runs a round now (or joins the one under way), and resolves with what it did; the schedule goes on from it. */
  round(): Promise<TrackingRound> {
    this.#running ??= this.#round().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Stops following every payout: each `track` ends (`waitForFinal` rejects with `PayoutNotFinalError`). */
  close(): void {
    for (const entry of this.#entries.values()) {
      for (const sub of entry.subs) sub.end();
    }
    this.#entries.clear();
    this.#cancel();
  }

  async *#follow(ref: string, track: Track): AsyncGenerator<PayoutChange> {
    const sub = this.#subscribe(ref, track);
    try {
      for (;;) {
        const change = sub.queue.shift();
        if (change) yield change;
        else if (sub.error !== undefined) throw sub.error;
        else if (sub.ended) return;
        else await sub.changed();
      }
    } finally {
      this.#unsubscribe(sub);
    }
  }

  #subscribe(ref: string, track: Track): Subscriber {
    let entry = this.#entries.get(ref);
    if (!entry) {
      entry = { ref, since: track.since, local: track.local, life: {}, subs: new Set() };
      this.#entries.set(ref, entry);
    }
    // Several calls for one payout: what any of them knows identifies it; the earliest `since` bounds it.
    entry.id ??= track.id;
    entry.match ??= track.match;
    if (entry.life.id === undefined && track.since < entry.since) {
      Object.assign(entry, { since: track.since, local: track.local });
    }
    const sub = new Subscriber(ref, entry, track.final ?? this.#settings.final, track, () =>
      this.#describe(entry),
    );
    entry.subs.add(sub);
    // What is known already comes first, as a change from nothing.
    const { status, statusAt, observedAt, uetr, trackingCodes } = entry.life;
    const row = entry.row;
    if (status !== undefined && row) {
      sub.push({ kind: 'status', status, at: statusAt ?? observedAt ?? row.updated_at }, row);
      if (uetr !== undefined)
        sub.push(
          { kind: 'uetr', status, at: row.updated_at, uetr, ...(trackingCodes ? { trackingCodes } : {}) },
          row,
        );
    }
    this.#join();
    return sub;
  }

  /**
   * A payout was added. An idle tracker runs a round at once (not before a `Retry-After` its last round was
   * given, even if every payout it was read for has ended since); otherwise the payout joins the next round, brought
   * to at most `minMs` away (never before a `Retry-After`). A round at once for every `track` made as many rounds
   * as payouts added (20 added 200 ms apart: 60 listing requests in 4 s), whatever the poll schedule said.
   */
  #join(): void {
    if (this.#running) this.#again = true;
    // Idle: at once, unless the last round was told to wait (a Retry-After outlives the payouts it was read for).
    else if (this.#timer === undefined) this.#schedule(Math.max(0, this.#notBefore - Date.now()));
    else {
      const now = Date.now();
      const at = Math.max(now + this.#settings.poll.minMs, this.#notBefore);
      if (at < this.#dueAt) this.#schedule(at - now);
    }
  }

  #unsubscribe(sub: Subscriber): void {
    sub.close();
    const entry = sub.entry;
    entry.subs.delete(sub);
    if (entry.subs.size === 0 && this.#entries.get(entry.ref) === entry) this.#entries.delete(entry.ref);
    if (this.#entries.size === 0) this.#cancel();
  }

  /** Applies a row to an entry, tells its listeners, and returns the changes. */
  #apply(entry: Entry, row: Transaction): LifeChange[] {
    const { life, changes, held } = applyObservation(entry.life, row);
    entry.life = life;
    for (const anomaly of [...changes.map((c) => c.anomaly), held]) {
      if (anomaly !== undefined) this.#deps.log?.('warn', `payout ${entry.ref} (${row.id}): ${anomaly}`);
    }
    if (entry.id === undefined) entry.id = life.id;
    // Seen: later rounds start at its creation, by the service's clock.
    const created = Date.parse(row.created_at);
    if (!Number.isNaN(created)) Object.assign(entry, { since: created, local: false });
    if (changes.length > 0) entry.row = row;
    for (const sub of entry.subs) for (const change of changes) sub.push(change, row);
    return changes;
  }

  #describe(entry: Entry): string {
    const seen = entry.life.status
      ? `last seen ${entry.life.status} at ${entry.life.statusAt}`
      : `not seen in the listing since ${new Date(entry.since).toISOString()}${entry.doubt ? ` (${entry.doubt})` : ''}`;
    const last = this.#last;
    if (last?.error !== undefined) return `${seen}; the last round failed (${(last.error as Error).message})`;
    return last?.reason ? `${seen}; the last round was incomplete (${last.reason})` : seen;
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#dueAt = Date.now() + ms;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.round();
    }, ms);
  }

  #cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #round(): Promise<TrackingRound> {
    this.#cancel();
    const entries = [...this.#entries.values()];
    const { poll, marginMs, maxPages, timeout } = this.#settings;
    const round: TrackingRound = {
      payouts: entries.length,
      requests: 0,
      rows: 0,
      changes: 0,
      complete: true,
    };
    let wait = 0;
    try {
      const request = timeout === undefined ? {} : { timeout };
      const settings = { list: this.#deps.list, request, marginMs, maxPages, clock: Date.now };
      const { matches, doubts, ...read } = await readRound(entries, settings);
      Object.assign(round, read);
      for (const { payout, transaction } of matches) round.changes += this.#apply(payout, transaction).length;
      for (const entry of entries) entry.doubt = undefined;
      for (const { payout, reason } of doubts) payout.doubt = reason;
      if (doubts.length > 0) {
        round.doubts = doubts.map(({ payout, reason }) => ({ externalReference: payout.ref, reason }));
      }
    } catch (error) {
      Object.assign(round, { complete: false, error });
      // A refusal of a read will not change by asking again (a revoked key, say): every call hears it.
      if (isRefusal(error)) for (const entry of entries) for (const sub of entry.subs) sub.fail(error);
      wait = askedWaitMs(error) ?? 0;
    }
    const { minMs, maxMs, factor } = poll;
    this.#delay =
      round.changes > 0 || this.#delay === undefined ? minMs : Math.min(maxMs, this.#delay * factor);
    this.#last = round;
    this.#notBefore = Date.now() + wait;
    if (this.#entries.size > 0) {
      round.nextInMs = Math.max(this.#again ? minMs : this.#delay, wait);
      this.#schedule(round.nextInMs);
    }
    this.#again = false;
    this.#deps.log?.('info', roundLine(round));
    try {
      this.#settings.onRound?.(round);
    } catch {
      // A logging callback must not stop the tracking.
    }
    return round;
  }
}

/**
 * `PayoutTracker` as `payoutTracker(client)` builds it. The class's constructor is private, so the published
 * types offer no way to make a tracker without a client; this alias is not exported from the package.
 */
export const InternalPayoutTracker = PayoutTracker as unknown as new (
  deps: TrackerDeps,
  options?: PayoutTrackerOptions,
) => PayoutTracker;
