import { APIUserAbortError } from '../../core/error.js';
import type { Transaction } from '../../rules/transactions.js';
import { type LifeChange, PayoutNotFinalError } from './payout-status.js';
import type { Entry } from './payout-tracker.js';
import type { PayoutChange } from './tracker-options.js';
import type { trackSettings } from './tracker-settings.js';

/** One `track` call's checked options. */
export type Track = ReturnType<typeof trackSettings>;

/** One `track` call: its queue of changes, and what ends it (a final status, its deadline, its signal). */
export class Subscriber {
  queue: PayoutChange[] = [];
  error: unknown;
  ended = false;
  #wake: (() => void) | undefined;
  #timers: ReturnType<typeof setTimeout>[] = [];
  #finalSeen = false;

  constructor(
    readonly ref: string,
    readonly entry: Entry,
    readonly finals: Set<string>,
    readonly track: Track,
    describe: () => string,
  ) {
    const { deadline, signal } = track;
    if (deadline !== undefined) {
      this.#after(deadline - Date.now(), () => {
        if (this.#finalSeen) return track.defaulted ? undefined : this.end();
        this.fail(
          new PayoutNotFinalError(
            ref,
            entry.life.status,
            `totalTimeout reached; ${describe()}${this.#hint()}`,
          ),
        );
      });
    }
    if (signal?.aborted) this.fail(new APIUserAbortError());
    signal?.addEventListener('abort', this.#abort, { once: true });
  }

  readonly #abort = () => this.fail(new APIUserAbortError());

  /** Never seen, and asked for by the reference alone: it may be listed under one the service assigned. */
  #hint(): string {
    const { entry, track } = this;
    if (entry.life.status !== undefined || entry.id !== undefined || entry.match || track.currency) return '';
    return '. An NGN (or mobile money) payout is listed under a reference the service assigns, never yours: pass currency and match (remarkMatch({ remark, amount, currency })), or the payout the service answered';
  }

  /** Queues a change seen by this call's final set; a final status ends it, now or after `afterFinalMs`. */
  push(change: LifeChange, row: Transaction): void {
    const afterFinal =
      change.kind === 'status' && change.previous !== undefined && this.finals.has(change.previous);
    const final = this.finals.has(change.status);
    this.queue.push({ ...change, externalReference: this.ref, final, afterFinal, transaction: row });
    if (change.kind === 'status' && final && !this.#finalSeen) {
      this.#finalSeen = true;
      if (this.track.afterFinalMs === 0) this.end();
      else this.#after(this.track.afterFinalMs, () => this.end());
    }
    this.#wake?.();
  }

  fail(error: unknown): void {
    this.error ??= error;
    this.#wake?.();
  }

  /** Resolves at the next change, end or failure. */
  changed(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.track.signal?.removeEventListener('abort', this.#abort);
  }

  /** Ends the iteration once the queue is read. */
  end(): void {
    this.ended = true;
    this.#wake?.();
  }

  #after(ms: number, then: () => void): void {
    this.#timers.push(setTimeout(then, Math.max(0, ms)));
  }
}
