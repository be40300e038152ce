import {
  type CurrencyCode,
  createExternalReference,
  type PayoutCreateParams,
  RequestValidationError,
} from '../index.js';
import { traceCall } from '../internal/channels.js';
import { optionKeys, refuseUnknownKeys } from '../internal/option-keys.js';
import {
  currencyCode,
  OUTBOX_OPTION_KEYS,
  type PayoutOutboxOptions,
  resolveOptions,
  wholeNumber,
} from './options.js';
import { type StoredBody, toRecord } from './record.js';
import { type StepSettings, step } from './settle.js';
import { OPEN_STATES, type OutboxRow, type PayoutRecord, type PayoutState } from './types.js';

/** Options of `enqueue`. */
export interface EnqueueOptions<Tx = unknown> {
  /** Your transaction's client (PostgreSQL: the `PoolClient` inside your `BEGIN`), so the payout commits with it. */
  tx?: Tx;
  /** Minor-unit digits, where the spec does not state them (USDC, USDT): the amount is checked by them. */
  digits?: number;
}

/** Options of `work`. */
export interface WorkOptions {
  /** Payouts settled at once by this loop. Default 4. */
  concurrency?: number;
  /** Stops the loop: no new claims; the payouts in flight finish their step. */
  signal?: AbortSignal;
  /** Milliseconds between polls when nothing is due. Default 1,000. */
  pollMs?: number;
  /** Resolve once nothing is due and nothing is in flight, instead of polling on. Default false. */
  untilIdle?: boolean;
  /** A step that failed (the database unreachable, say): the loop goes on; the row's lease lapses. */
  onError?: (error: unknown) => void;
}

/** Options of `list`. */
export interface ListOptions {
  /** Only payouts in this state. */
  state?: PayoutState;
  /** Records at most. Default 100. */
  limit?: number;
  /** The last reference of the previous page. */
  after?: string;
}

/** Durable payouts on your own database; see docs/payouts-at-scale.md. */
export interface PayoutOutbox<Tx = unknown> {
  /**
   * Records a payout to send and returns its reference (`body.externalReference`, or a new one). Inside your
   * transaction (`{ tx }`), it commits or rolls back with it. The same reference and body again returns the
   * reference; another body under it, or a second NGN payout with the same remark, is refused. The body is
   * checked first by the client's `payouts.check` (its `payoutLimits` included): a refused one is not recorded.
   */
  enqueue<C extends string = CurrencyCode>(
    body: PayoutCreateParams<C>,
    options?: EnqueueOptions<Tx>,
  ): Promise<string>;
  /**
   * Drives one payout a step towards a final state, from any process, any number of times: returns its record
   * (still `retry` or `sending`, with `nextAttemptAt`, when it must be tried again; as it stands when another
   * owner holds it or it is already final).
   */
  settle(reference: string): Promise<PayoutRecord>;
  /** Settles due payouts until `signal` aborts (or, with `untilIdle`, until none is due). */
  work(options?: WorkOptions): Promise<void>;
  /** One payout's record, or undefined when the outbox has none under `reference`. */
  get(reference: string): Promise<PayoutRecord | undefined>;
  /** Payouts in `state` (all without one), oldest first; `after` the last reference of the previous page. */
  list(options?: ListOptions): Promise<PayoutRecord[]>;
}

const ENQUEUE_KEYS = optionKeys<EnqueueOptions>()(['tx', 'digits']);
const WORK_KEYS = optionKeys<WorkOptions>()(['concurrency', 'signal', 'pollMs', 'untilIdle', 'onError']);
const LIST_KEYS = optionKeys<ListOptions>()(['state', 'limit', 'after']);
const STATES: readonly string[] = [...OPEN_STATES, 'created', 'recovered', 'refused', 'not_sent', 'unknown'];

/** Creates the outbox over a client and a store. Call `store.migrate()` (or apply its SQL) once first. */
export function createPayoutOutbox<Tx = unknown>(options: PayoutOutboxOptions<Tx>): PayoutOutbox<Tx> {
  refuseUnknownKeys(options, OUTBOX_OPTION_KEYS);
  const resolved = resolveOptions(options);
  const { store } = options;
  const settings: StepSettings = { ...resolved, client: options.client, store };
  const { owner, leaseMs, hooks } = resolved;

  const run = async (row: OutboxRow, readBack: boolean) => {
    await hooks.afterClaim?.(row.reference);
    return step(settings, row, readBack);
  };

  return {
    enqueue(body, given) {
      // Synchronous up to the store's insert, so that with SQLite it runs inside the caller's open transaction.
      try {
        refuseUnknownKeys(given, ENQUEUE_KEYS, ['options']);
        // Checked by the client, so its payoutLimits hold here as they do for a payout sent at once.
        const parsed = options.client.payouts.check(body, { digits: given?.digits });
        const reference = parsed.externalReference ?? createExternalReference('payout');
        const currency = currencyCode(parsed.currency);
        // NGN: the listing shows the service's reference, so the payout is recognised by a remark of its own.
        const assigned = resolved.serviceAssigned.has(currency);
        const remark = assigned ? (body.remark ?? reference) : body.remark;
        const stored: StoredBody = {
          body: { ...body, externalReference: reference, ...(remark === undefined ? {} : { remark }) },
          ...(given?.digits === undefined ? {} : { digits: given.digits }),
        };
        const row: OutboxRow = {
          reference,
          state: 'pending',
          currency,
          body: JSON.stringify(stored),
          match_remark: assigned ? remark! : null,
          created_at: 0,
          updated_at: 0,
          next_attempt_at: 0,
          lease_until: null,
          owner: null,
          token: 0,
          sends: 0,
          lookups: 0,
          accepted: false,
          reason: null,
          result: null,
          attempts: '[]',
        };
        // Called before any await: with SQLite, the insert runs inside the caller's open transaction.
        return store.insert(row, given?.tx).then((result) => {
          if (result.inserted) return reference;
          if (result.existing && result.existing.body === row.body) return reference;
          if (result.existing) {
            const message = 'is already in the outbox with another payout: use a new reference';
            throw new RequestValidationError([{ path: ['externalReference'], message }]);
          }
          const message = `is the remark of another payout in the outbox: the listing could not tell the two apart (the service assigns ${currency} references)`;
          throw new RequestValidationError([{ path: ['remark'], message }]);
        });
      } catch (error) {
        return Promise.reject(error);
      }
    },

    settle(reference) {
      // One `outbox.settle` span (or channel event) around the payout's calls, with the state it ended in.
      return traceCall('outbox.settle', async (context) => {
        if (typeof reference !== 'string' || reference === '') {
          throw new RequestValidationError([{ path: ['reference'], message: 'must be a non-empty string' }]);
        }
        const [row] = await store.claim(owner, leaseMs, reference);
        const current = row ? undefined : await store.get(reference);
        if (!row && !current) {
          throw new RequestValidationError([{ path: ['reference'], message: 'is not in the outbox' }]);
        }
        const record = row ? (await run(row, true))! : toRecord(current!);
        if (context) context.outcome = record.state;
        return record;
      });
    },

    async work(given = {}) {
      refuseUnknownKeys(given, WORK_KEYS);
      const concurrency = wholeNumber('concurrency', given.concurrency ?? 4, 1, 1000);
      const pollMs = wholeNumber('pollMs', given.pollMs ?? 1000, 0);
      const { signal, untilIdle = false } = given;
      const onError = given.onError ?? ((error) => console.error('payout outbox:', error));
      const running = new Set<Promise<unknown>>();
      // A finished step or an abort wakes the loop; a wake that comes while it is busy is kept for its next wait.
      let woke = false;
      let resolveWait: (() => void) | undefined;
      const wake = () => {
        woke = true;
        resolveWait?.();
      };
      signal?.addEventListener('abort', wake, { once: true });
      while (!signal?.aborted) {
        const free = concurrency - running.size;
        let claimed: OutboxRow[] = [];
        if (free > 0) {
          try {
            claimed = await store.claim(owner, leaseMs, undefined, free);
          } catch (error) {
            onError(error);
          }
        }
        for (const row of claimed) {
          const task: Promise<unknown> = run(row, false)
            .catch(onError)
            .finally(() => {
              running.delete(task);
              wake();
            });
          running.add(task);
        }
        if (untilIdle && claimed.length === 0 && running.size === 0) return;
        // As many were due as there was room for: more may be, once a slot frees.
        if (free > 0 && claimed.length === free) continue;
        if (!woke) {
          // Full: wait for a step to end. Room but nothing due: poll again after pollMs.
          const timer = running.size < concurrency ? setTimeout(wake, pollMs) : undefined;
          await new Promise<void>((resolve) => {
            resolveWait = resolve;
          });
          clearTimeout(timer);
        }
        woke = false;
        resolveWait = undefined;
      }
      await Promise.all(running);
    },

    async get(reference) {
      const row = await store.get(reference);
      return row && toRecord(row);
    },

    async list(given = {}) {
      refuseUnknownKeys(given, LIST_KEYS);
      if (given.state !== undefined && !STATES.includes(given.state)) {
        throw new RequestValidationError([
          { path: ['state'], message: `must be one of: ${STATES.join(', ')}` },
        ]);
      }
      const limit = wholeNumber('limit', given.limit ?? 100, 1, 10_000);
      return (await store.list({ state: given.state, limit, after: given.after })).map(toRecord);
    },
  };
}
