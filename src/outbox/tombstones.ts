import * as z from 'zod/mini';
import { RequestValidationError } from '../index.js';
import { isDate, optionBag } from '../rules/option-bag.js';
import type { ArchiveOptions, EnqueueResult } from './api.js';
import { differences } from './equality.js';
import { wholeNumber } from './option-checks.js';
import { archivedRecord } from './record.js';
import type { OutboxRow, OutboxTombstone, StoredBody } from './types.js';

const invalid = (field: string, message: string) => new RequestValidationError([{ path: [field], message }]);
/** The options of `archive`: `before` is required. */
const archiveOptions = optionBag<ArchiveOptions>({
  before: z.custom(isDate, 'must be a valid Date: final payouts last changed before it are archived'),
  limit: wholeNumber(1, 10_000),
});

/** The payout a tombstone keeps, as a message names it: reference, state, the service's id, when it went. */
function describe(reference: string, row: OutboxRow, archivedAt: number | null): string {
  const id = row.transaction_id ?? row.result?.payout?.id ?? row.result?.transaction?.id;
  const when = archivedAt === null ? '' : ` on ${new Date(archivedAt).toISOString()}`;
  return `payout ${reference} (${row.state}${id ? `, the service's ${id}` : ''}), archived${when}`;
}

/**
 * An enqueue under the reference of a payout whose row was archived or deleted. The same payout is answered with
 * its tombstone's record: it is never sent again. Another payout is refused, naming the first; so is any payout
 * when the tombstone kept only the reference (whether it is the same payout cannot be told, and it may have moved).
 */
export function answerFromTombstone(tombstone: OutboxTombstone, given: StoredBody): EnqueueResult {
  const { reference, row } = tombstone;
  if (!row) {
    const message = `was the reference of payout ${reference}, which this outbox recorded and whose row was deleted without a tombstone (before this release kept them, or by a TRUNCATE): it may have moved money, and whether this is the same payout cannot be told. If it is, look it up (lookupBeforeRetry with lookupFirst: true) rather than enqueue it again; if it is another payout, give it its own reference`;
    throw invalid('externalReference', message);
  }
  const differ = differences(row.body, given);
  if (differ.length > 0) {
    const message = `is the reference of ${describe(reference, row, tombstone.archived_at)}, which differs in ${differ.join(', ')}: if this is that payout, nothing is needed; if it is a different payout, give it its own reference`;
    throw invalid('externalReference', message);
  }
  return { reference, enqueued: false, record: archivedRecord(tombstone)! };
}

/** `archive`'s options read: `before` as the store's epoch ms, and `limit`. */
export function archiveArguments(given: ArchiveOptions): [before: number, limit: number] {
  if (given === null || typeof given !== 'object') throw invalid('before', 'is required: a Date');
  const { before, limit } = archiveOptions.read(given, 'outbox.archive')!;
  return [before.getTime(), limit ?? 1000];
}
