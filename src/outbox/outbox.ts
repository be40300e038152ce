import { createExternalReference, type PayoutCreateParams, RequestValidationError } from '../index.js';
import { traceCall } from '../internal/channels.js';
import { optionKeys, refuseUnknownKeys } from '../internal/option-keys.js';
import { remarkIssue, remarkKey } from '../payouts/proof/payout-identity.js';
import type { EnqueueOptions, EnqueueResult, ListOptions, PayoutOutbox } from './api.js';
import { differences } from './equality.js';
import { deliver, type Follower, observe, trackRound } from './follow.js';
import { applyTo } from './life.js';
import {
  currencyCode,
  OUTBOX_OPTION_KEYS,
  type PayoutOutboxOptions,
  resolveOptions,
  wholeNumber,
} from './options.js';
import { reconcileOutbox } from './reconcile.js';
import { archivedRecord, EMPTY_ROW, toRecord } from './record.js';
import { step } from './settle.js';
import type { StepSettings } from './step.js';
import { answerFromTombstone, archiveArguments } from './tombstones.js';
import { type OutboxRow, STATES, type StoredBody } from './types.js';
import { operatorVerbs } from './verbs.js';
import { work } from './work.js';

export type {
  ArchiveOptions,
  EnqueueOptions,
  EnqueueResult,
  ListOptions,
  OutboxCounts,
  PayoutOutbox,
  VerbOptions,
} from './api.js';

const ENQUEUE_KEYS = optionKeys<EnqueueOptions>()(['tx', 'digits']);
const LIST_KEYS = optionKeys<ListOptions>()(['state', 'status', 'limit', 'after', 'due', 'dueBefore']);

const invalid = (field: string, message: string) => new RequestValidationError([{ path: [field], message }]);

/** `list`'s `after`, checked: the last record of the previous page (its `createdAt` and `reference`). */
function cursorOf(after: unknown): { createdAt: number; reference: string } | undefined {
  if (after === undefined) return undefined;
  const { createdAt, reference } = (after ?? {}) as { createdAt?: unknown; reference?: unknown };
  if (
    typeof after !== 'object' ||
    !(createdAt instanceof Date) ||
    Number.isNaN(createdAt.getTime()) ||
    typeof reference !== 'string'
  ) {
    const message = `must be the last record of the previous page (an object with createdAt, a Date, and reference), not ${typeof after === 'string' ? `a reference (${JSON.stringify(after.slice(0, 80))})` : after === null ? 'null' : typeof after}: pass records.at(-1)`;
    throw invalid('after', message);
  }
  return { createdAt: createdAt.getTime(), reference };
}

/** Creates the outbox over a client and a store. Call `store.migrate()` (or apply its SQL) once first. */
export function createPayoutOutbox<Tx = unknown>(options: PayoutOutboxOptions<Tx>): PayoutOutbox<Tx> {
  const resolved = resolveOptions(options);
  refuseUnknownKeys(options, OUTBOX_OPTION_KEYS);
  const { store, client } = options;
  const settings: StepSettings = { ...resolved, client, store: store as StepSettings['store'] };
  const { owner, leaseMs, hooks } = resolved;
  const follower: Follower = { ...resolved, client, store: settings.store, life: resolved.life };
  const run = async (row: OutboxRow, readBack: boolean, claimedAt: number) => {
    await hooks.afterClaim?.(row.reference);
    const result = await step(settings, row, readBack, claimedAt);
    // The transaction it was found as is the payout's first observation: its status, for the hooks.
    if (result.state === 'recovered') {
      const found = await store.get(row.reference);
      const transaction = found?.result?.transaction;
      if (found && transaction) await applyTo(settings.store, found, transaction, resolved.final);
    }
    return result;
  };
  // A fresh payout is marked by its claim (one round trip fewer), unless every first POST is looked up first:
  // the lookup may outlast the lease, and only a mark right before the POST renews it.
  const markFresh = !resolved.lookupBeforeFirstSend;
  const record = async (row: OutboxRow) => toRecord(row, await store.now());
  const verbs = operatorVerbs(settings.store, owner, record);

  /**
   * The row as recorded, checked by the client as `payouts.create` checks it (its `payoutLimits` included), so a
   * refused payout is never recorded; throws before anything is written.
   */
  const rowOf = (body: PayoutCreateParams<string>, given: EnqueueOptions<Tx> | undefined): OutboxRow => {
    refuseUnknownKeys(given, ENQUEUE_KEYS, ['options']);
    const wire = client.payouts.check(body, { digits: given?.digits });
    const reference = wire.externalReference ?? createExternalReference('payout');
    const currency = currencyCode(wire.currency);
    const { stored, assigned } = storedOf(body, reference, currency, given);
    if (assigned) {
      const problem = remarkIssue(stored.body.remark);
      if (problem) throw invalid('remark', problem);
    }
    return {
      ...EMPTY_ROW,
      reference,
      currency,
      body: stored,
      remark_key: assigned ? remarkKey(stored.body.remark!) : null,
    };
  };

  /** The body as recorded. Listed under a reference the service assigns: recognised by a remark of its own. */
  const storedOf = (
    body: PayoutCreateParams<string>,
    reference: string,
    currency: string,
    given: EnqueueOptions<Tx> | undefined,
  ) => {
    const assigned = client.payouts.assignsReference(currency);
    const remark = assigned ? (body.remark ?? reference) : body.remark;
    const stored: StoredBody = {
      body: { ...body, externalReference: reference, ...(remark === undefined ? {} : { remark }) },
      ...(given?.digits === undefined ? {} : { digits: given.digits }),
    };
    return { stored, assigned };
  };

  /**
   * A body the client refuses now (a `payoutLimits` lowered since, say) may be a payout recorded earlier: the same
   * payout under its reference is answered with its record, as any repeat is (it was checked when it was
   * recorded, and may have moved money since). Anything else is the refusal.
   */
  const recordedAlready = async (
    body: PayoutCreateParams<string>,
    given: EnqueueOptions<Tx> | undefined,
    refusal: unknown,
  ): Promise<EnqueueResult> => {
    const reference = (body as { externalReference?: unknown } | null)?.externalReference;
    if (!(refusal instanceof RequestValidationError) || typeof reference !== 'string') throw refusal;
    const existing = await store.get(reference);
    const archived = existing ? undefined : await store.tombstone(reference);
    const recorded = existing ?? archived?.row;
    if (!recorded) throw refusal;
    const { stored } = storedOf(body, reference, recorded.currency, given);
    if (differences(recorded.body, stored).length > 0) throw refusal;
    if (archived) return answerFromTombstone(archived, stored);
    return { reference, enqueued: false, record: await record(existing!) };
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
          if ('archived' in result) return answerFromTombstone(result.archived, row.body);
          const differ = differences(result.existing.body, row.body);
          if (differ.length > 0) {
            const message = `is taken by a payout that differs in ${differ.join(', ')}: if this is the same payout, nothing is needed; if it is a different payout, give it its own reference`;
            throw invalid('externalReference', message);
          }
          return { reference: row.reference, enqueued: false, record: await record(result.existing) };
        });
      } catch (error) {
        return recordedAlready(body as PayoutCreateParams<string>, given, error);
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
        const archived = row || current ? undefined : archivedRecord(await store.tombstone(reference));
        if (!row && !current && !archived) throw invalid('reference', 'is not in the outbox');
        const result = row
          ? (await run(row, true, claimedAt)).record!
          : (archived ?? (await record(current!)));
        if (context) context.outcome = result.state;
        return result;
      });
    },

    work: (given) =>
      work(
        {
          store,
          owner,
          leaseMs,
          markFresh,
          run,
          follow: {
            everyMs: resolved.tracking?.everyMs,
            round: resolved.tracking ? (drained) => trackRound(follower, drained) : undefined,
            claim: (limit) => store.claimDeliveries(owner, leaseMs, limit),
            deliver: (row) => deliver(follower, row),
          },
        },
        given,
      ),

    observe: (transaction) => observe(follower, transaction),

    reconcile: (given) => reconcileOutbox(follower, given),

    async get(reference) {
      const row = await store.get(reference);
      return row ? record(row) : archivedRecord(await store.tombstone(reference));
    },

    async list(given = {}) {
      refuseUnknownKeys(given, LIST_KEYS);
      if (given.state !== undefined && !(STATES as readonly string[]).includes(given.state)) {
        throw invalid('state', `must be one of: ${STATES.join(', ')}`);
      }
      const limit = wholeNumber('limit', given.limit ?? 100, 1, 10_000);
      const after = cursorOf(given.after);
      const dueBefore = given.dueBefore?.getTime() ?? (given.due ? await store.now() : undefined);
      const now = await store.now();
      const query = { state: given.state, status: given.status, limit, after, dueBefore };
      return (await store.list(query)).map((row) => toRecord(row, now));
    },

    async count() {
      const { states, oldestOpen } = await store.count();
      return { states, oldestOpen: oldestOpen === null ? null : new Date(oldestOpen) };
    },

    async archive(given) {
      return { archived: await store.archive(...archiveArguments(given)) };
    },

    ...verbs,
  };
}
