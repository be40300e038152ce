import { ownField } from '../core/own.js';
import { DEFAULT_FINAL_STATUSES, type PaymentsClient, RequestValidationError } from '../index.js';
import { hasPayoutPort } from '../payouts/port.js';
import { aFunction, anyValue, nullableOption, optionBag, optionIssues } from '../rules/option-bag.js';
import { aFunctionOrNull, wholeIssue, wholeNumber } from './option-checks.js';
import type { OutboxChange, PayoutOutboxStore, PayoutRecord, PayoutState } from './types.js';

/**
 * The client the outbox sends through: a `PaymentsClient`, whose `payouts.check` (with `payoutLimits`) runs before
 * recording and once more before each send, `assignsReference` says how the listing recognises a payout, the POST
 * is sent as `payouts.create` sends it (the body as checked, not checked again) and the lookup is
 * `searchByReference`: the state machine's two effects. `transactions.list` is the tracking rounds' listing;
 * `verify` runs where payouts are verified before they are recorded (`verifyBeneficiary`).
 */
export type PayoutOutboxClient = PaymentsClient;

/** How `work()` follows sent payouts (docs/payout-lifecycle.md). */
export interface OutboxTrackingOptions {
  /** Milliseconds between tracking rounds; one process at a time runs them (a lease). Default 60,000. */
  everyMs?: number;
  /** A payout is followed this long after it was sent, final or not. Default 3 days. */
  followForMs?: number;
  /** And this long after it became final, for a later change (a refund after completion). Default 0. */
  afterFinalMs?: number;
  /** Statuses that are final. Default `completed`, `failed`, `rejected`, `cancelled`, `refunded`. */
  final?: readonly string[];
  /** Margin for the store's clock against the service's. Default 120,000. */
  windowMarginMs?: number;
  /** Listing queries per round at most, per listing (100 rows each). Default 1,000. */
  maxLookupPages?: number;
}

/**
 * The merchant's code for a sent payout's changes, run by `work()` at least once per change, in order: a process
 * that dies in one (or a hook that throws) leaves the change to be delivered again. `record` is the record as the
 * change left it.
 */
export interface PayoutLifeHooks {
  /** The payout's status changed (`previous`: undefined for the first status seen). */
  onStatus?: (
    record: PayoutRecord,
    previous: string | undefined,
    change: OutboxChange,
  ) => void | Promise<void>;
  /** The status became a final one (after `onStatus`); again for a later final status (`refunded`). */
  onFinal?: (record: PayoutRecord, change: OutboxChange) => void | Promise<void>;
  /** Its UETR, or its tracking codes, arrived (or changed). */
  onUetr?: (record: PayoutRecord, change: OutboxChange) => void | Promise<void>;
}

/**
 * Called at each step of a settle, and awaited: for tracing, and for tests that crash or pause a worker at an
 * exact point. A hook that throws ends the step there, as a crash would (the lease then lapses).
 */
export interface PayoutOutboxHooks {
  /** A row was claimed (this owner holds its lease). */
  afterClaim?: (reference: string) => void | Promise<void>;
  /** About to search the listing for a payout that may have been sent before. */
  beforeLookup?: (reference: string) => void | Promise<void>;
  /** The claim was renewed and the send counted: the POST is next. */
  beforePost?: (reference: string) => void | Promise<void>;
  /** The POST (and any lookup after it) ended; nothing is written yet. */
  afterPost?: (reference: string) => void | Promise<void>;
  /** The step's outcome was written (`lost`: another owner holds the row, and nothing was written). */
  afterWrite?: (reference: string, state: PayoutState | 'lost') => void | Promise<void>;
  /** A change's hooks ran and that was written (`delivered`: its seq); or a hook threw (`failed`). */
  afterDeliver?: (reference: string, delivered: number, failed: boolean) => void | Promise<void>;
  /** A tracking round ended: the payouts it followed, the listing requests it made, the changes it found. */
  afterRound?: (round: { payouts: number; requests: number; changes: number }) => void | Promise<void>;
}

/** Options of `createPayoutOutbox`. */
export interface PayoutOutboxOptions<Tx = unknown> extends PayoutLifeHooks {
  /** The client payouts are sent with. */
  client: PayoutOutboxClient;
  /** Where payouts are recorded: `postgresOutboxStore`, `sqliteOutboxStore` or `memoryOutboxStore`. */
  store: PayoutOutboxStore<Tx>;
  /** This process's name in the `owner` column. Default: `outbox-` and a random id. */
  owner?: string;
  /** Milliseconds of each request (POST and listing pages). Default 30,000. */
  timeout?: number;
  /**
   * Milliseconds to wait before each lookup of a payout that may have been sent: a committed payout may take a
   * moment to appear in the listing. Default `[1000, 4000, 10000]`.
   */
  visibilityWaits?: number[];
  /**
   * How long a claim lasts, in ms. A POST starts only while at least `2 x (timeout + sum of visibilityWaits)` of it
   * is left: that covers the POST, not every listing page of the lookups after it (a claim lapsing during those is
   * fenced out of its write, and the next owner looks before sending). Default: that margin plus 30 s.
   */
  leaseMs?: number;
  /**
   * How long after a send the listing may still not show a payout the service committed (ms). A payout whose
   * send is in doubt (no answer, a timeout, 408, 429, a 5xx) is sent again only on a complete lookup read at
   * least this long after that send could have ended. Nothing waits on the outbox, so the default is generous:
   * 300,000 (5 minutes). A listing that lags longer is the one thing no client can see past.
   */
  listingLagMs?: number;
  /** POSTs at most, each after proof the previous did not go through; then `not_sent`. Default 8. */
  maxSends?: number;
  /**
   * Lookups, after the step's own visibility waits, of a payout in doubt before it is `unknown` (a person looks):
   * the first once `listingLagMs` has passed, the rest spread by the back-off. Default 8.
   */
  maxLookups?: number;
  /**
   * Listing pages read per lookup and listing (100 rows each). A lookup reads from before the payout's first send
   * to the service's now, so its cost grows with the payout's age (a payout re-opened a day later reads a day).
   * Default 1,000 (100,000 rows).
   */
  maxLookupPages?: number;
  /** Back-off between attempts: `min(maxMs, baseMs x 2^(n-1))`, from half to all of it. Default 2 s to 15 min. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Test and tracing seams. */
  hooks?: PayoutOutboxHooks;
  /** Following sent payouts in `work()`; `false`: never (observations still come through `observe`). */
  tracking?: OutboxTrackingOptions | false;
}

const DAY_MS = 86_400_000;

/** The tracking options (`tracking`, unless `false`). */
const trackingOptions = optionBag<OutboxTrackingOptions>({
  everyMs: wholeNumber(0),
  followForMs: wholeNumber(0, 400 * DAY_MS),
  afterFinalMs: wholeNumber(0, 400 * DAY_MS),
  windowMarginMs: wholeNumber(0, DAY_MS),
  maxLookupPages: wholeNumber(1),
  final: nullableOption(
    (f: unknown) => Array.isArray(f) && f.length > 0 && f.every((s) => typeof s === 'string'),
    'must be a non-empty list of statuses',
  ),
});

/** `backoff`: `maxMs` is checked after the read, for its least value is `baseMs`. */
const backoffOptions = optionBag<NonNullable<PayoutOutboxOptions['backoff']>>({
  baseMs: wholeNumber(0),
  maxMs: anyValue,
});

/** `hooks`: each called only when it is there (`null` too is none). */
const hookOptions = optionBag<PayoutOutboxHooks>({
  afterClaim: aFunctionOrNull,
  beforeLookup: aFunctionOrNull,
  beforePost: aFunctionOrNull,
  afterPost: aFunctionOrNull,
  afterWrite: aFunctionOrNull,
  afterDeliver: aFunctionOrNull,
  afterRound: aFunctionOrNull,
});

const waitsIssues = (waits: unknown) =>
  !Array.isArray(waits) || waits.length === 0
    ? [{ path: [], message: 'must be a non-empty list of ms' }]
    : [...waits.entries()].flatMap(([i, w]) => {
        const message = wholeIssue(w, 0);
        return message ? [{ path: [String(i)], message }] : [];
      });

/**
 * The options of `createPayoutOutbox`. What depends on another key is checked after the read: `client` and
 * `store` (required, and a client of this copy), `leaseMs` (its least value is the guard of `timeout` and
 * `visibilityWaits`); the bags it holds (`tracking`, `backoff`, `hooks`) are read by their own.
 */
const outboxOptions = optionBag<PayoutOutboxOptions>({
  client: anyValue,
  store: anyValue,
  owner: nullableOption((s: unknown) => typeof s === 'string', 'must be a string'),
  timeout: wholeNumber(1),
  visibilityWaits: optionIssues((w) => (w === null ? [] : waitsIssues(w))),
  leaseMs: anyValue,
  listingLagMs: wholeNumber(0, DAY_MS),
  maxSends: wholeNumber(1),
  maxLookups: wholeNumber(1),
  maxLookupPages: wholeNumber(1),
  backoff: anyValue,
  hooks: anyValue,
  tracking: anyValue,
  onStatus: aFunction,
  onFinal: aFunction,
  onUetr: aFunction,
});

/** The tracking options checked, with their defaults; `undefined` when tracking is off. */
function trackingOf(given: OutboxTrackingOptions | false | undefined) {
  if (given === false) return undefined;
  const tracking = trackingOptions.read(given, 'createPayoutOutbox tracking', ['tracking']) ?? {};
  return {
    everyMs: tracking.everyMs ?? 60_000,
    followForMs: tracking.followForMs ?? 3 * DAY_MS,
    afterFinalMs: tracking.afterFinalMs ?? 0,
    marginMs: tracking.windowMarginMs ?? 120_000,
    maxPages: tracking.maxLookupPages ?? 1000,
    final: new Set<string>(tracking.final ?? DEFAULT_FINAL_STATUSES),
  };
}

const invalid = (path: string[], message: string) => new RequestValidationError([{ path, message }]);

/** `value` unless it breaks its rule (a least value another key sets): then the rule's words, under `path`. */
function atLeast(path: string[], value: number, min: number): number {
  const message = wholeIssue(value, min);
  if (message) throw invalid(path, message);
  return value;
}

/** A currency as the service reads it: trimmed, in any case. */
export const currencyCode = (currency: string) => currency.trim().toUpperCase();

/**
 * The options read once (`outboxOptions`), defaults filled in. `client` and `store` are used as given: handles,
 * not data, whose state and identity are the caller's.
 */
export function resolveOptions<Tx>(given: PayoutOutboxOptions<Tx>) {
  // Before the read, which would call it an unknown option and not say where it went.
  if (given !== null && typeof given === 'object' && Object.hasOwn(given, 'serviceAssignedCurrencies')) {
    const message =
      'is a client option now, read by every payout path alike: new PaymentsClient({ serviceAssignedCurrencies })';
    throw invalid(['serviceAssignedCurrencies'], message);
  }
  const options = outboxOptions.read(given as PayoutOutboxOptions, 'createPayoutOutbox') ?? ({} as never);
  const timeout = options.timeout ?? 30_000;
  const waits = options.visibilityWaits ?? [1000, 4000, 10000];
  const guardMs = 2 * (timeout + waits.reduce((a, b) => a + b, 0));
  const leaseMs = atLeast(['leaseMs'], options.leaseMs ?? guardMs + 30_000, guardMs + 1000);
  const backoff = backoffOptions.read(options.backoff, 'createPayoutOutbox backoff', ['backoff']);
  const baseMs = backoff?.baseMs ?? 2000;
  const maxMs = atLeast(['backoff', 'maxMs'], backoff?.maxMs ?? 15 * 60_000, baseMs);
  const fullBackoff = (round: number) => Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, round - 1)));
  const hooks = hookOptions.read(options.hooks, 'createPayoutOutbox hooks', ['hooks']) ?? {};
  const client = ownField(given, 'client');
  const store = ownField(given, 'store') as PayoutOutboxStore<Tx> | undefined;
  if (!client?.payouts || !store) throw invalid([client ? 'store' : 'client'], 'is required');
  if (typeof client.payouts.check !== 'function') {
    throw invalid(
      ['client'],
      'must be a PaymentsClient: payouts.check, which enqueue checks a body with, is missing',
    );
  }
  // Refused here, before anything is recorded: else the first payout in doubt would fail its every lookup.
  if (!hasPayoutPort(client)) {
    const message =
      'must be a PaymentsClient of this copy of payments-service-sdk (one from require() beside an outbox from ' +
      'import is another copy): the outbox looks its payouts up through it';
    throw invalid(['client'], message);
  }
  const tracking = trackingOf(options.tracking);
  return {
    client,
    store,
    timeout,
    visibilityWaits: [...waits],
    guardMs,
    leaseMs,
    maxSends: options.maxSends ?? 8,
    maxLookups: options.maxLookups ?? 8,
    maxLookupPages: options.maxLookupPages ?? 1000,
    listingLagMs: options.listingLagMs ?? 300_000,
    backoff: (round: number) => {
      const full = fullBackoff(round);
      return full / 2 + (Math.random() * full) / 2;
    },
    backoffFloor: (round: number) => fullBackoff(round) / 2,
    lookupBeforeFirstSend: (store as { lookupBeforeFirstSend?: boolean }).lookupBeforeFirstSend === true,
    owner: options.owner ?? `outbox-${globalThis.crypto.randomUUID().slice(0, 8)}`,
    hooks,
    tracking,
    final: tracking?.final ?? new Set<string>(DEFAULT_FINAL_STATUSES),
    life: { onStatus: options.onStatus, onFinal: options.onFinal, onUetr: options.onUetr },
  };
}
