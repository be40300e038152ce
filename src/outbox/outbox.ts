import { optionKeys } from '../core/option-keys.js';
import { refuseUnknownKeys } from '../core/unknown-option.js';
import { RequestValidationError } from '../index.js';
import { traceCall } from '../internal/channels.js';
import type { ListOptions, PayoutOutbox, VerbOptions } from './api.js';
import { enqueuer } from './enqueue.js';
import { deliver, type Follower, observe, trackRound } from './follow.js';
import { applyTo } from './life.js';
import { OUTBOX_OPTION_KEYS, type PayoutOutboxOptions, resolveOptions, wholeNumber } from './options.js';
import { reconcileOutbox } from './reconcile.js';
import { archivedRecord, toRecord } from './record.js';
import { step } from './settle.js';
import type { StepSettings } from './step.js';
import { archiveArguments } from './tombstones.js';
import { type OutboxRow, type PayoutRecord, type PayoutState, STATES } from './types.js';
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

const LIST_KEYS = optionKeys<ListOptions>()(['state', 'status', 'limit', 'after', 'due', 'dueBefore']);
const VERB_KEYS = optionKeys<VerbOptions & { outcome?: unknown }>()(['note', 'by', 'outcome']);

const invalid = (field: string, message: string) => new RequestValidationError([{ path: [field], message }]);

/** Creates the outbox over a client and a store. Call `store.migrate()` (or apply its SQL) once first. */
export function createPayoutOutbox<Tx = unknown>(options: PayoutOutboxOptions<Tx>): PayoutOutbox<Tx> {
  const resolved = resolveOptions(options);
  refuseUnknownKeys(options, OUTBOX_OPTION_KEYS, 'createPayoutOutbox');
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

  return {
    enqueue: enqueuer({ client, store, record }),

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
            round: resolved.tracking ? () => trackRound(follower) : undefined,
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
      refuseUnknownKeys(given, LIST_KEYS, 'outbox.list');
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

    async retry(reference, given = {}) {
      refuseUnknownKeys(given, VERB_KEYS, 'outbox.retry');
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
      refuseUnknownKeys(given, VERB_KEYS, 'outbox.resolve');
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
