import type { Transaction } from '../../rules/transactions.js';
import { isFinalStatus, type LifeChange, type PayoutLife, rank } from './payout-status.js';

/**
 * How one observation of a payout (a listed row, a row from a webhook handler or an export) changes what is
 * known of it, in the order of `payout-status.ts`: the one rule the tracker and the outbox apply.
 */

/**
 * Whether an observation is newer than what is known: a later `updated_at`, or at the same instant a status
 * further along. A row whose time cannot be read is newer only than nothing.
 */
function isNewer(life: PayoutLife, at: number, status: string): boolean {
  if (life.status === undefined) return true;
  const last = life.observedAt === undefined ? Number.NEGATIVE_INFINITY : Date.parse(life.observedAt);
  if (at !== last) return at > last;
  return (rank(status) ?? -1) > (rank(life.status) ?? -1);
}

/**
 * Whether an observation's status replaces the known one: a final status outranks one that is not, whatever the
 * timestamps say (the service's hosts may stamp by clocks seconds apart); otherwise the newer observation wins.
 */
function takes(life: PayoutLife, at: number, status: string): boolean {
  if (life.status !== undefined && isFinalStatus(life.status) !== isFinalStatus(status)) {
    return isFinalStatus(status);
  }
  return isNewer(life, at, status);
}

const secondsApart = (a: number, b: number) => `${Math.round((a - b) / 100) / 10} s`;

/** `at` is a readable time before `than` (or nothing is known). */
const isBefore = (at: number, than: string | undefined) =>
  !Number.isNaN(at) && (than === undefined || at < Date.parse(than));

const sameCodes = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

/**
 * Applies one observation (a listed row, a row from a webhook handler or an export) to what is known, in any
 * order and any number of times: an older observation never overwrites a newer status, and a duplicate changes
 * nothing. `statusAt` is the earliest `updated_at` seen showing the status now known, whichever row came first
 * (after a status went back and forth, an old row of it may take it before the last change: nothing records
 * the statuses between). A final status outranks one that is not, whatever `updated_at` says (`payout-status.ts`).
 * A UETR or a tracking code, once assigned, stays: an older row may still bring one not yet known. A row of
 * another transaction (a different `id` once one is known) changes nothing. `held`: a row stamped later than any
 * seen whose status was not taken (not final, after a final one): an anomaly that changed nothing, said once.
 */
export function applyObservation(
  life: PayoutLife,
  row: Transaction,
): { life: PayoutLife; changes: LifeChange[]; held?: string } {
  if (life.id !== undefined && row.id !== life.id) return { life, changes: [] };
  const at = Date.parse(row.updated_at);
  const newer = isNewer(life, at, row.status);
  const taken = takes(life, at, row.status);
  const last = life.observedAt === undefined ? Number.NaN : Date.parse(life.observedAt);
  const next: PayoutLife = { ...life, id: row.id };
  const changes: LifeChange[] = [];
  let held: string | undefined;
  if (taken && row.status !== life.status) {
    const change: LifeChange = { kind: 'status', status: row.status, at: row.updated_at };
    if (life.status !== undefined) change.previous = life.status;
    const [from, to] = [rank(life.status), rank(row.status)];
    if (from !== undefined && to !== undefined && to < from) {
      change.anomaly = `the status went back from ${life.status} to ${row.status}`;
    } else if (at < last) {
      change.anomaly =
        `updated_at went back ${secondsApart(last, at)}: the ${row.status} row is stamped ${row.updated_at}, before ` +
        `the ${life.status} one seen (${life.observedAt}); the service's clocks differ, and a final status outranks one that is not`;
    }
    changes.push(change);
    Object.assign(next, { status: row.status, statusAt: row.updated_at });
  } else if (!taken && newer && row.status !== life.status) {
    held =
      `a row stamped ${row.updated_at} shows ${row.status} after ${life.status}: ${life.status} is kept (a final ` +
      `status outranks one that is not, whatever updated_at says; the service's clocks may differ)`;
  } else if (!taken && row.status === life.status && isBefore(at, life.statusAt)) {
    // The same status, shown earlier than known (rows arriving out of order): it has held since then, so the
    // answer does not depend on which row came first.
    next.statusAt = row.updated_at;
  }
  if (!Number.isNaN(at) && (next.observedAt === undefined || at > Date.parse(next.observedAt))) {
    next.observedAt = row.updated_at;
  }
  const codes = row.tracking_codes as Record<string, string> | undefined;
  // A newer row's codes win; an older one only adds codes not known yet.
  const merged = newer ? { ...life.trackingCodes, ...codes } : { ...codes, ...life.trackingCodes };
  const uetr = row.uetr !== undefined && (life.uetr === undefined || newer) ? row.uetr : life.uetr;
  const status = next.status ?? row.status;
  if (uetr !== life.uetr) {
    const change: LifeChange = { kind: 'uetr', status, at: row.updated_at, uetr: uetr! };
    if (life.uetr !== undefined) change.anomaly = `the UETR changed from ${life.uetr} to ${uetr}`;
    if (Object.keys(merged).length > 0) change.trackingCodes = merged;
    changes.push(change);
  } else if (!sameCodes(merged, life.trackingCodes)) {
    changes.push({ kind: 'tracking_codes', status, at: row.updated_at, trackingCodes: merged });
  }
  if (uetr !== undefined) next.uetr = uetr;
  if (Object.keys(merged).length > 0) next.trackingCodes = merged;
  return held === undefined ? { life: next, changes } : { life: next, changes, held };
}
