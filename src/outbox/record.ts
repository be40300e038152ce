import { APIError } from '../index.js';
import { currencyDigits, toMajorUnits, toMinorUnits } from '../rules/currency.js';
import { attentionOf, lapsedLease } from './attention.js';
import { KEPT } from './sql-tombstones.js';
import {
  type InsertResult,
  type OutboxAttempt,
  type OutboxChange,
  type OutboxRow,
  type OutboxTombstone,
  type PayoutRecord,
  type PayoutState,
  STATES,
  type StoredBody,
  type StoredResult,
} from './types.js';

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

/**
 * An attempt as the audit trail records it: when, the HTTP status or error class, the service's request id
 * (from the answer, or from the error of one), and what it found.
 */
export function attemptOf(
  kind: OutboxAttempt['kind'],
  error?: unknown,
  detail?: string,
  answer?: { status?: number | undefined; requestId?: string | undefined },
): OutboxAttempt {
  const attempt: OutboxAttempt = { at: new Date().toISOString(), kind };
  if (answer?.status !== undefined) attempt.status = answer.status;
  if (answer?.requestId) attempt.requestId = answer.requestId;
  if (error !== undefined) {
    attempt.error = error instanceof Error ? error.name : typeof error;
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number') attempt.status = status;
    if (error instanceof APIError && error.requestId) attempt.requestId = error.requestId;
    attempt.detail = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  }
  if (detail !== undefined) attempt.detail = detail;
  return attempt;
}

const time = (value: unknown): number | null => {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.getTime() : Number(value);
};
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * The `body` column read back. A row recorded by an earlier release may hold `amount` as a number of major
 * units, or as a string without the currency's digits (`'100'` NGN), which that release sent as that JSON number.
 * It is spelt as the checks take it now (`'100.00'`): the same number goes out, and a row recorded before the
 * rule is never refused at send time for its spelling. An amount the currency cannot hold is left for the check.
 */
function storedBody(value: unknown): StoredBody {
  const stored = json<StoredBody>(value);
  const { amount, currency } = stored.body as { amount?: unknown; currency?: unknown };
  if (typeof amount !== 'number' && typeof amount !== 'string') return stored;
  let spelt = String(amount);
  if (stored.digits === undefined && typeof currency === 'string' && currencyDigits(currency) !== undefined) {
    try {
      spelt = toMajorUnits(currency, toMinorUnits(currency, amount));
    } catch {}
  }
  Object.assign(stored.body, { amount: spelt });
  return stored;
}
const flag = (value: unknown) => value === true || value === 1 || value === 1n || value === '1';

/**
 * A row as a driver returns it: `timestamptz` as a Date (`pg`) or epoch ms (SQLite, or a string from drivers
 * that return bigints so), `jsonb` parsed or JSON text, booleans as booleans or 0/1.
 */
export function rowFrom(raw: Record<string, unknown>): OutboxRow {
  return {
    reference: String(raw.reference),
    state: raw.state as PayoutState,
    currency: String(raw.currency),
    body: storedBody(raw.body),
    remark_key: (raw.remark_key as string | null) ?? null,
    created_at: time(raw.created_at)!,
    updated_at: time(raw.updated_at)!,
    next_attempt_at: time(raw.next_attempt_at)!,
    lease_until: time(raw.lease_until),
    owner: (raw.owner as string | null) ?? null,
    token: Number(raw.token),
    sends: Number(raw.sends),
    answered: Number(raw.answered ?? 0),
    lookups: Number(raw.lookups),
    accepted: flag(raw.accepted),
    lookup_first: flag(raw.lookup_first),
    doubted: flag(raw.doubted),
    first_sent_at: time(raw.first_sent_at),
    last_sent_at: time(raw.last_sent_at),
    clock_doubt_ms: Number(raw.clock_doubt_ms ?? 0),
    reason: (raw.reason as string | null) ?? null,
    result: raw.result === null || raw.result === undefined ? null : json<StoredResult>(raw.result),
    attempts: json<OutboxAttempt[]>(raw.attempts ?? '[]'),
    status: (raw.status as string | null) ?? null,
    status_at: time(raw.status_at),
    observed_at: time(raw.observed_at),
    uetr: (raw.uetr as string | null) ?? null,
    tracking_codes: raw.tracking_codes == null ? null : json<Record<string, string>>(raw.tracking_codes),
    final_at: time(raw.final_at),
    transaction_id: (raw.transaction_id as string | null) ?? null,
    changes: json<OutboxChange[]>(raw.changes ?? '[]'),
    observed: Number(raw.observed ?? 0),
    delivered: Number(raw.delivered ?? 0),
    hook_failures: Number(raw.hook_failures ?? 0),
    ...(raw.marked === true || raw.marked === 1 ? { marked: true } : {}),
  };
}

/** The record of a row; `now` (store clock) decides whether a lease still holds it. */
export function toRecord(row: OutboxRow, now = Number.NEGATIVE_INFINITY): PayoutRecord {
  const { body } = row.body;
  const leased = row.owner !== null && row.lease_until !== null && row.lease_until > now;
  const record: PayoutRecord = {
    reference: row.reference,
    state: row.state,
    body,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    // Held by another owner: not before its lease ends (a queue job must not spin on a time in the past).
    nextAttemptAt: new Date(leased ? Math.max(row.next_attempt_at, row.lease_until!) : row.next_attempt_at),
    sends: row.sends,
    answered: row.answered,
    accepted: row.accepted,
    attempts: row.attempts,
    changes: row.changes,
    delivered: row.delivered,
  };
  if (leased) record.lease = { owner: row.owner!, until: new Date(row.lease_until!) };
  const lapsed = lapsedLease(row, now);
  if (lapsed) record.lapsedLease = { owner: lapsed.owner, until: new Date(lapsed.until) };
  const attention = attentionOf(row, now);
  if (attention !== undefined) record.attention = attention;
  if (row.first_sent_at !== null) record.firstSentAt = new Date(row.first_sent_at);
  if (row.last_sent_at !== null) record.lastSentAt = new Date(row.last_sent_at);
  if (row.remark_key !== null && body.remark !== undefined) record.matchRemark = body.remark;
  if (row.reason !== null) record.reason = row.reason;
  if (row.result?.payout) record.payout = row.result.payout;
  if (row.result?.transaction) record.transaction = row.result.transaction;
  if (row.status !== null) record.status = row.status;
  if (row.status_at !== null) record.statusAt = new Date(row.status_at);
  if (row.final_at !== null) record.finalAt = new Date(row.final_at);
  if (row.uetr !== null) record.uetr = row.uetr;
  if (row.tracking_codes !== null) record.trackingCodes = row.tracking_codes;
  if (row.transaction_id !== null) record.transactionId = row.transaction_id;
  return record;
}

/** Counts per state (every state present, 0 when none) and the oldest open row's creation. */
export function tally(rows: Record<string, unknown>[]): {
  states: Record<PayoutState, number>;
  oldestOpen: number | null;
} {
  const states = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<PayoutState, number>;
  let oldestOpen: number | null = null;
  for (const row of rows) {
    states[row.state as PayoutState] = Number(row.n);
    const oldest = time(row.oldest);
    if (oldest !== null && (oldestOpen === null || oldest < oldestOpen)) oldestOpen = oldest;
  }
  return { states, oldestOpen };
}

/** A fresh row's every column but its identity (times are the store's to stamp). */
export const EMPTY_ROW: Omit<OutboxRow, 'reference' | 'currency' | 'body' | 'remark_key'> = {
  state: 'pending',
  created_at: 0,
  updated_at: 0,
  next_attempt_at: 0,
  lease_until: null,
  owner: null,
  token: 0,
  sends: 0,
  answered: 0,
  lookups: 0,
  accepted: false,
  lookup_first: false,
  doubted: false,
  first_sent_at: null,
  last_sent_at: null,
  clock_doubt_ms: 0,
  reason: null,
  result: null,
  attempts: [],
  status: null,
  status_at: null,
  observed_at: null,
  uetr: null,
  tracking_codes: null,
  final_at: null,
  transaction_id: null,
  changes: [],
  observed: 0,
  delivered: 0,
  hook_failures: 0,
};

/** A row as its tombstone keeps it: the `KEPT` columns, the others empty, due (in its record) when it last changed. */
export function keptOf(row: OutboxRow): OutboxRow {
  const empty: Partial<OutboxRow> = structuredClone(EMPTY_ROW);
  for (const column of KEPT) delete empty[column];
  const { marked: _, ...rest } = structuredClone(row);
  return { ...rest, ...empty, next_attempt_at: row.updated_at };
}

/** A tombstones row as a driver returns it; a row of its own only when it kept one. */
export function tombstoneFrom(raw: Record<string, unknown>): OutboxTombstone {
  const tombstone: OutboxTombstone = {
    reference: String(raw.reference),
    remark_key: (raw.remark_key as string | null) ?? null,
    archived_at: time(raw.archived_at),
  };
  if (raw.state != null && raw.body != null) {
    tombstone.row = keptOf(rowFrom({ ...EMPTY_ROW, attempts: [], changes: [], ...raw }));
  }
  return tombstone;
}

/** The record of a tombstone that kept its row (`archivedAt` set), or undefined. */
export function archivedRecord(tombstone: OutboxTombstone | undefined): PayoutRecord | undefined {
  if (!tombstone?.row) return undefined;
  // Archived: no verb applies to it any more.
  const { attention: _, ...record } = toRecord(tombstone.row);
  return {
    ...record,
    archivedAt: new Date(tombstone.archived_at ?? tombstone.row.updated_at),
  };
}

/**
 * An insert that added nothing: the live row under the reference, else its tombstone (a store's reads). The
 * remark reserved for this enqueue goes back (`giveBack`) unless that payout holds it, so a refused enqueue
 * leaves nothing behind.
 */
export function notInserted(
  row: OutboxRow,
  existing: OutboxRow | undefined,
  archived: OutboxTombstone | undefined,
): { result: InsertResult; giveBack: boolean } {
  const held = existing?.remark_key ?? archived?.remark_key ?? null;
  const giveBack = row.remark_key !== null && held !== row.remark_key;
  if (existing) return { result: { inserted: false, existing }, giveBack };
  // The reference conflicted, so a live row or a tombstone holds it: a row deleted since leaves its tombstone.
  if (archived) return { result: { inserted: false, archived }, giveBack };
  throw new Error(`payout ${row.reference} was neither recorded nor found: its reference is held by nothing`);
}
