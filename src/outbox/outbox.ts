import {
  type CurrencyCode,
  createExternalReference,
  type PayoutCreateParams,
  RequestValidationError,
} from '../index.js';
import { traceCall } from '../internal/channels.js';
import { optionKeys, refuseUnknownKeys } from '../internal/option-keys.js';
import { remarkIssue, remarkKey } from '../lib/payout-identity.js';
import { differences } from './equality.js';
import {
  currencyCode,
  OUTBOX_OPTION_KEYS,
  type PayoutOutboxOptions,
  resolveOptions,
  wholeNumber,
} from './options.js';
import { EMPTY_ROW, toRecord } from './record.js';
import { step } from './settle.js';
import type { StepSettings } from './step.js';
import { type OutboxRow, type PayoutRecord, type PayoutState, STATES, type StoredBody } from './types.js';
import { type WorkOptions, type WorkSummary, work } from './work.js';

/** Options of `enqueue`. */
export interface EnqueueOptions<Tx = unknown> {
  /**
   * Your transaction's handle, so the payout commits or rolls back with it: PostgreSQL, the `PoolClient` inside
   * your `BEGIN`; SQLite, the `DatabaseSync` your `BEGIN` ran on. A handle not inside a transaction is refused.
   */
  tx?: Tx;
  /** Minor-unit digits, where the spec does not state them (USDC, USDT): the amount is checked by them. */
  digits?: number;
}

/** What `enqueue` did. */
export interface EnqueueResult {
  /** The payout's reference: `body.externalReference`, or a new one. */
  reference: string;
  /**
   * `true`: recorded now. `false`: the same payout was already recorded under this reference, and `record` says
   * where it stands; a final one is not sent again by enqueueing it (see `retry` and `resolve`).
   */
  enqueued: boolean;
  record: PayoutRecord;
}

/** Options of `list`. */
export interface ListOptions {
  /** Only payouts in this state. */
  state?: PayoutState;
  /** Records at most. Default 100. */
  limit?: number;
  /** The last record of the previous page: the next page starts after it, even when it has been deleted since. */
  after?: Pick<PayoutRecord, 'createdAt' | 'reference'>;
  /** Only open payouts due now (held by an owner or not): a sweeper's view. */
  due?: boolean;
  /** Only open payouts due by this time. */
  dueBefore?: Date;
}

/** Options of the operator's verbs. */
export interface VerbOptions {
  /** Why: kept in the audit trail. */
  note?: string;
  /** Who: kept in the audit trail. Default: this outbox's `owner`. */
  by?: string;
}

/** Rows per state, for dashboards. */
export interface OutboxCounts {
  states: Record<PayoutState, number>;
  /** When the oldest payout still open was recorded. */
  oldestOpen: Date | null;
}

/** Durable payouts on your own database; see docs/payouts-at-scale.md. */
export interface PayoutOutbox<Tx = unknown> {
  /**
   * Records a payout to send. Inside your transaction (`{ tx }`), it commits or rolls back with it. The same
   * payout again under its reference (compared as the service reads it) returns its record with `enqueued:
   * false`; another payout under the reference, or one whose remark another payout holds (service-assigned
   * currencies), is refused with the fields that differ.
   */
  enqueue<C extends string = CurrencyCode>(
    body: PayoutCreateParams<C>,
    options?: EnqueueOptions<Tx>,
  ): Promise<EnqueueResult>;
  /**
   * Drives one payout a step towards a final state, from any process, any number of times: returns its record
   * (still open, with `nextAttemptAt`, when it must be tried again; when another owner holds it, as it stands,
   * with `nextAttemptAt` at that owner's lease end).
   */
  settle(reference: string): Promise<PayoutRecord>;
  /** Settles due payouts: until `signal` aborts (a deploy), or with `until: 'drained'` until none is left due (a cron). */
  work(options?: WorkOptions): Promise<WorkSummary>;
  /** One payout's record, or undefined when the outbox has none under `reference`. */
  get(reference: string): Promise<PayoutRecord | undefined>;
  /** Payouts oldest first; page with `after` (the last record of the previous page). */
  list(options?: ListOptions): Promise<PayoutRecord[]>;
  /** Payouts per state, and the oldest open one. */
  count(): Promise<OutboxCounts>;
  /**
   * Re-opens a `not_sent` payout, or a `refused` one once its cause is fixed: it is sent again, after a lookup.
   * Recorded in the audit trail. Returns the record.
   */
  retry(reference: string, options?: VerbOptions): Promise<PayoutRecord>;
  /**
   * An operator's verdict on an `unknown` payout, recorded in the audit trail: `exists` (it moved: the record
   * becomes `recovered`) or `absent` (the service confirms it does not exist: it is re-opened and sent again,
   * after a lookup). No `unknown` payout is ever sent again without this verdict.
   */
  resolve(reference: string, options: VerbOptions & { outcome: 'exists' | 'absent' }): Promise<PayoutRecord>;
}

const ENQUEUE_KEYS = optionKeys<EnqueueOptions>()(['tx', 'digits']);
const LIST_KEYS = optionKeys<ListOptions>()(['state', 'limit', 'after', 'due', 'dueBefore']);
const VERB_KEYS = optionKeys<VerbOptions & { outcome?: unknown }>()(['note', 'by', 'outcome']);

const invalid = (field: string, message: string) => new RequestValidationError([{ path: [field], message }]);

/** Creates the outbox over a client and a store. Call `store.migrate()` (or apply its SQL) once first. */
export function createPayoutOutbox<Tx = unknown>(options: PayoutOutboxOptions<Tx>): PayoutOutbox<Tx> {
  const resolved = resolveOptions(options);
  refuseUnknownKeys(options, OUTBOX_OPTION_KEYS);
  const { store, client } = options;
  const settings: StepSettings = { ...resolved, client, store: store as StepSettings['store'] };
  const { owner, leaseMs, hooks } = resolved;
  const run = async (row: OutboxRow, readBack: boolean, claimedAt: number) => {
    await hooks.afterClaim?.(row.reference);
    return step(settings, row, readBack, claimedAt);
  };
  // A fresh payout is marked by its claim (one round trip fewer), unless every first POST is looked up first:
  // the lookup may outlast the lease, and only a mark right before the POST renews it.
  const markFresh = !resolved.lookupBeforeFirstSend;
  const record = async (row: OutboxRow) => toRecord(row, await store.now());

  /**
   * The row as recorded, checked by the client as `payouts.create` checks it (its `payoutLimits` included), so a
   * refused payout is never recorded; throws before anything is written.
   */
  const rowOf = (body: PayoutCreateParams<string>, given: EnqueueOptions<Tx> | undefined): OutboxRow => {
    refuseUnknownKeys(given, ENQUEUE_KEYS, ['options']);
    const wire = client.payouts.check(body, { digits: given?.digits });
    const reference = wire.externalReference ?? createExternalReference('payout');
    const currency = currencyCode(wire.currency);
    // Listed under a reference the service assigns: recognised by a remark of its own (the reference when none).
    const assigned = client.payouts.assignsReference(currency);
    const remark = assigned ? (body.remark ?? reference) : body.remark;
    if (assigned) {
      const problem = remarkIssue(remark);
      if (problem) throw invalid('remark', problem);
    }
    const stored: StoredBody = {
      body: { ...body, externalReference: reference, ...(remark === undefined ? {} : { remark }) },
      ...(given?.digits === undefined ? {} : { digits: given.digits }),
    };
    return {
      ...EMPTY_ROW,
      reference,
      currency,
      body: stored,
      remark_key: assigned ? remarkKey(remark!) : null,
    };
  };

  return {
    enqueue(body, given) {
      try {
        const row = rowOf(body as PayoutCreateParams<string>, given);
        // Called before any await: with SQLite, the insert runs inside the caller's open transaction.
        return store.insert(row, given?.tx).then(async (result) => {
          if (result.inserted)
            return { reference: row.reference, enqueued: true, record: await record(result.row) };
          if ('remarkTakenBy' in result) {
            const message = `is the remark of payout ${result.remarkTakenBy}, recorded earlier: ${row.currency} payouts are listed under a reference the service assigns, so each is recognised by its remark (compared ignoring case and spacing), which must stay unique: give this payout a remark of its own`;
            throw invalid('remark', message);
          }
          const differ = differences(result.existing.body, row.body);
          if (differ.length > 0) {
            const message = `is taken by a payout that differs in ${differ.join(', ')}: if this is the same payout, nothing is needed; if it is a different payout, give it its own reference`;
            throw invalid('externalReference', message);
          }
          return { reference: row.reference, enqueued: false, record: await record(result.existing) };
        });
      } catch (error) {
        return Promise.reject(error);
      }
    },

    settle(reference) {
      // One `outbox.settle` span (or channel event) around the payout's calls, with the state it ended in.
      return traceCall('outbox.settle', async (context) => {
        if (typeof reference !== 'string' || reference === '')
          throw invalid('reference', 'must be a non-empty string');
        const claimedAt = performance.now();
        const [row] = await store.claim(owner, leaseMs, reference, 1, markFresh);
        const current = row ? undefined : await store.get(reference);
        if (!row && !current) throw invalid('reference', 'is not in the outbox');
        const result = row ? (await run(row, true, claimedAt)).record! : await record(current!);
        if (context) context.outcome = result.state;
        return result;
      });
    },

    work: (given) => work({ store, owner, leaseMs, markFresh, run }, given),

    async get(reference) {
      const row = await store.get(reference);
      return row && record(row);
    },

    async list(given = {}) {
      refuseUnknownKeys(given, LIST_KEYS);
      if (given.state !== undefined && !(STATES as readonly string[]).includes(given.state)) {
        throw invalid('state', `must be one of: ${STATES.join(', ')}`);
      }
      const limit = wholeNumber('limit', given.limit ?? 100, 1, 10_000);
      const after = given.after && {
        createdAt: given.after.createdAt.getTime(),
        reference: given.after.reference,
      };
      const dueBefore = given.dueBefore?.getTime() ?? (given.due ? await store.now() : undefined);
      const now = await store.now();
      return (await store.list({ state: given.state, limit, after, dueBefore })).map((row) =>
        toRecord(row, now),
      );
    },

    async count() {
      const { states, oldestOpen } = await store.count();
      return { states, oldestOpen: oldestOpen === null ? null : new Date(oldestOpen) };
    },

    async retry(reference, given = {}) {
      refuseUnknownKeys(given, VERB_KEYS);
      return verb(
        reference,
        ['not_sent', 'refused'],
        'retry',
        given,
        'retry',
        're-opened by an operator: sent again after a lookup',
      );
    },

    async resolve(reference, given) {
      refuseUnknownKeys(given, VERB_KEYS);
      if (given?.outcome !== 'exists' && given?.outcome !== 'absent')
        throw invalid('outcome', "must be 'exists' or 'absent'");
      return given.outcome === 'exists'
        ? verb(
            reference,
            ['unknown'],
            'recovered',
            given,
            'resolve: exists',
            'an operator found that the payout exists',
          )
        : verb(
            reference,
            ['unknown'],
            'retry',
            given,
            'resolve: absent',
            'an operator found that the payout does not exist: sent again after a lookup',
          );
    },
  };

  async function verb(
    reference: string,
    from: PayoutState[],
    state: PayoutState,
    given: VerbOptions,
    what: string,
    reason: string,
  ): Promise<PayoutRecord> {
    const by = given.by ?? owner;
    const note = given.note === undefined ? '' : `: ${given.note}`;
    const attempt = { at: new Date().toISOString(), kind: 'operator' as const, by, detail: `${what}${note}` };
    const reopen = state === 'retry';
    const row = await store.reopen(reference, {
      from,
      state,
      reason: `${reason} (${by}${note})`,
      reopen,
      clearAccepted: reopen,
      attempt,
    });
    if (row) return record(row);
    const current = await store.get(reference);
    if (!current) throw invalid('reference', 'is not in the outbox');
    throw invalid('reference', `is ${current.state}: ${what} applies to ${from.join(' or ')} payouts only`);
  }
}
