import { APIError, type Payout, type PayoutCreateParams, type Transaction } from '../index.js';
import type { OutboxAttempt, OutboxRow, PayoutRecord } from './types.js';

/** What the `body` column holds: the payout as enqueued, and the digits to check its amount by. */
export interface StoredBody {
  body: PayoutCreateParams & { externalReference: string };
  digits?: number;
}

/**
 * The `body` column read back. A row recorded by an earlier release may hold `amount` as a number of major
 * units, which that release sent as that JSON number: its decimal text sends the same number and passes the checks.
 */
export function readStored(text: string): StoredBody {
  const stored = JSON.parse(text) as StoredBody;
  const { amount } = stored.body as { amount?: unknown };
  if (typeof amount === 'number') Object.assign(stored.body, { amount: String(amount) });
  return stored;
}

/** What the `result` column holds. */
export interface StoredResult {
  payout?: Payout;
  transaction?: Transaction;
}

/** The audit trail keeps the first attempts and the latest, so a record stays small whatever happens. */
const KEEP_FIRST = 10;
const KEEP_LAST = 40;

export function appendAttempts(trail: OutboxAttempt[], added: OutboxAttempt[]): OutboxAttempt[] {
  const all = [...trail, ...added];
  if (all.length <= KEEP_FIRST + KEEP_LAST) return all;
  const dropped = all.length - KEEP_FIRST - KEEP_LAST;
  const note: OutboxAttempt = {
    at: all[KEEP_FIRST]!.at,
    kind: 'lookup',
    detail: `${dropped} attempt(s) left out`,
  };
  return [...all.slice(0, KEEP_FIRST), note, ...all.slice(-KEEP_LAST + 1)];
}

/** An attempt as the audit trail records it: when, the HTTP status or error class, the request id. */
export function attemptOf(kind: OutboxAttempt['kind'], error?: unknown, detail?: string): OutboxAttempt {
  const attempt: OutboxAttempt = { at: new Date().toISOString(), kind };
  if (error !== undefined) {
    attempt.error = error instanceof Error ? error.name : typeof error;
    if (error instanceof APIError) {
      attempt.status = error.status;
      if (error.requestId) attempt.requestId = error.requestId;
    } else if (
      error &&
      typeof error === 'object' &&
      typeof (error as { status?: unknown }).status === 'number'
    ) {
      attempt.status = (error as { status: number }).status;
    }
    attempt.detail = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
  }
  if (detail !== undefined) attempt.detail = detail;
  return attempt;
}

export function toRecord(row: OutboxRow): PayoutRecord {
  const stored = readStored(row.body);
  const result = row.result ? (JSON.parse(row.result) as StoredResult) : {};
  const record: PayoutRecord = {
    reference: row.reference,
    state: row.state,
    body: stored.body,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    nextAttemptAt: new Date(row.next_attempt_at),
    sends: row.sends,
    accepted: row.accepted,
    attempts: JSON.parse(row.attempts) as OutboxAttempt[],
  };
  if (row.match_remark !== null) record.matchRemark = row.match_remark;
  if (row.reason !== null) record.reason = row.reason;
  if (result.payout) record.payout = result.payout;
  if (result.transaction) record.transaction = result.transaction;
  return record;
}
