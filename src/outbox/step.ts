import type { PayoutOutboxClient, PayoutOutboxHooks } from './options.js';
import type { OutboxAttempt, OutboxRow, PayoutOutboxStore, PayoutRecord, PayoutState } from './types.js';

/** The shapes one step of the outbox works with (`settle.ts` decides, `sight.ts` sees). */

/** The settings one step runs with (see `PayoutOutboxOptions`). */
export interface StepSettings {
  client: PayoutOutboxClient;
  store: PayoutOutboxStore<unknown>;
  leaseMs: number;
  /**
   * A POST starts only with this much of the lease left (`2 x (timeout + visibility waits)`). It covers the POST,
   * not every listing page of the lookups after it: a claim that lapses meanwhile is fenced out of its write.
   */
  guardMs: number;
  timeout: number;
  visibilityWaits: number[];
  maxSends: number;
  maxLookups: number;
  maxLookupPages: number;
  /** See `PayoutOutboxOptions.listingLagMs`. */
  listingLagMs: number;
  backoff: (round: number) => number;
  /** The back-off's lower bound, without jitter: the state machine's schedule must not move between steps. */
  backoffFloor: (round: number) => number;
  /** The store cannot promise a mark survives a failover: every first POST is looked up first too. */
  lookupBeforeFirstSend: boolean;
  hooks: PayoutOutboxHooks;
}

/** What a step wrote (`lost`: nothing, another owner holds the row), and the record after it when asked for. */
export interface StepResult {
  state: PayoutState | 'lost';
  record?: PayoutRecord;
}

/** One step's working state: the row as claimed, its trail, the clock it reads windows by. */
export interface Step {
  settings: StepSettings;
  row: OutboxRow;
  trail: OutboxAttempt[];
  /** Now, by the store's clock: read at the claim (its lease is `now + leaseMs`), then by this process's timer. */
  clock: () => number;
  /** `performance.now()` when the claim was asked for. */
  claimedAt: number;
  /** Why the step could not POST: another owner holds the row, or the claim was renewed too late. */
  lost?: 'claim' | 'late';
}
