import { RequestValidationError } from '../index.js';
import { traceCall } from '../internal/channels.js';
import { isBoolean, isDate, nullableOption, option, optionBag, optionIssues } from '../rules/option-bag.js';
import type { ListOptions, PayoutOutbox } from './api.js';
import { enqueuer } from './enqueue.js';
import { deliver, type Follower, observe, trackRound } from './follow.js';
import { applyTo } from './life.js';
import { wholeNumber } from './option-checks.js';
import { type PayoutOutboxOptions, resolveOptions } from './options.js';
import { reconcileOutbox } from './reconcile.js';
import { archivedRecord, toRecord } from './record.js';
import { step } from './settle.js';
import type { StepSettings } from './step.js';
import { archiveArguments } from './tombstones.js';
import { type OutboxRow, STATES } from './types.js';
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

const invalid = (field: string, message: string) => new RequestValidationError([{ path: [field], message }]);

/** Why `after` is not a page's last record (its `createdAt` and `reference`), if it is not. */
function cursorIssue(after: unknown): string | undefined {
  const { createdAt, reference } = (after ?? {}) as { createdAt?: unknown; reference?: unknown };
  if (
    typeof after === 'object' &&
    createdAt instanceof Date &&
    !Number.isNaN(createdAt.getTime()) &&
    typeof reference === 'string'
  )
    return undefined;
  return `must be the last record of the previous page (an object with createdAt, a Date, and reference), not ${typeof after === 'string' ? `a reference (${JSON.stringify(after.slice(0, 80))})` : after === null ? 'null' : typeof after}: pass records.at(-1)`;
}

/** The options of `list`. */
const listOptions = optionBag<ListOptions>({
  state: option(
    (s: unknown) => (STATES as readonly unknown[]).includes(s),
    `must be one of: ${STATES.join(', ')}`,
  ),
  status: option((s: unknown) => typeof s === 'string', 'must be a string'),
  limit: wholeNumber(1, 10_000),
  after: optionIssues((after) => {
    const message = cursorIssue(after);
    return message ? [{ path: [], message }] : [];
  }),
  due: nullableOption(isBoolean, 'must be true or false'),
  dueBefore: nullableOption(isDate, 'must be a valid Date'),
});

/** Creates the outbox over a client and a store. Call `store.migrate()` (or apply its SQL) once first. */
export function createPayoutOutbox<Tx = unknown>(options: PayoutOutboxOptions<Tx>): PayoutOutbox<Tx> {
  const resolved = resolveOptions(options);
  const { store, client } = resolved;
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

    async list(options) {
      const given = listOptions.read(options, 'outbox.list') ?? {};
      const limit = given.limit ?? 100;
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

    ...verbs,
  };
}
