import { keptOf, tally } from './record.js';
import { ARCHIVED_STATES } from './sql-tombstones.js';
import { OPEN_STATES, type OutboxRow, type OutboxTombstone, type PayoutOutboxStore } from './types.js';

/** Options of `memoryOutboxStore`. */
export interface MemoryOutboxStoreOptions {
  /** The clock, epoch ms (a test's fake clock, say). Default `Date.now`. */
  now?: () => number;
}

const open = (row: OutboxRow) => (OPEN_STATES as readonly string[]).includes(row.state);
const sent = (row: OutboxRow) => row.state === 'created' || row.state === 'recovered';
const sentAt = (row: OutboxRow) => row.first_sent_at ?? row.created_at;

/**
 * The outbox in this process's memory, for tests and one-process tools: the same contract as the database
 * stores (claims, fenced writes, remarks and tombstones kept for good), and gone when the process ends. Not for
 * money in production.
 */
export function memoryOutboxStore(options: MemoryOutboxStoreOptions = {}): PayoutOutboxStore<never> {
  const now = options.now ?? Date.now;
  const rows = new Map<string, OutboxRow>();
  const remarks = new Map<string, string>();
  const tombstones = new Map<string, OutboxTombstone>();
  const leases = new Map<string, { owner: string; until: number }>();
  const copy = (row: OutboxRow): OutboxRow => structuredClone(row);
  const free = (row: OutboxRow, t: number) => row.lease_until === null || row.lease_until < t;
  const due = (row: OutboxRow, t: number) => open(row) && row.next_attempt_at <= t && free(row, t);
  const fresh = (row: OutboxRow) => row.state === 'pending' && row.sends === 0 && !row.lookup_first;
  const take = (row: OutboxRow, owner: string, t: number, leaseMs: number, markFresh: boolean) => {
    Object.assign(row, { owner, token: row.token + 1, lease_until: t + leaseMs });
    if (!markFresh || !fresh(row)) return copy(row);
    Object.assign(row, mark(row, t));
    return { ...copy(row), marked: true };
  };
  /** What a mark changes. */
  const mark = (row: OutboxRow, t: number) => ({
    state: 'sending' as const,
    sends: row.sends + 1,
    updated_at: t,
    first_sent_at: row.first_sent_at ?? t,
    last_sent_at: t,
  });
  const order = (a: OutboxRow, b: OutboxRow) =>
    a.created_at - b.created_at || (a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0);

  return {
    async migrate() {},
    async insert(row) {
      // The reference first: an enqueue refused for it reserves no remark.
      const existing = rows.get(row.reference);
      if (existing) return { inserted: false, existing: copy(existing) };
      const archived = tombstones.get(row.reference);
      if (archived) return { inserted: false, archived: structuredClone(archived) };
      if (row.remark_key !== null) {
        const holder = remarks.get(row.remark_key) ?? row.reference;
        if (holder !== row.reference) return { inserted: false, remarkTakenBy: holder };
        remarks.set(row.remark_key, row.reference);
      }
      const t = now();
      const stored = { ...copy(row), created_at: t, updated_at: t, next_attempt_at: t };
      rows.set(row.reference, stored);
      return { inserted: true, row: copy(stored) };
    },
    async archive(before, limit) {
      const archivable = (row: OutboxRow) =>
        ARCHIVED_STATES.includes(row.state) &&
        row.updated_at < before &&
        row.observed <= row.delivered &&
        (row.status === null || row.final_at !== null);
      const gone = [...rows.values()].filter(archivable).sort(order).slice(0, limit);
      const t = now();
      for (const row of gone) {
        rows.delete(row.reference);
        const kept = keptOf(row);
        tombstones.set(row.reference, {
          reference: row.reference,
          remark_key: row.remark_key,
          archived_at: t,
          row: kept,
        });
      }
      return gone.map((row) => row.reference);
    },
    async tombstone(reference) {
      const found = tombstones.get(reference);
      return found && structuredClone(found);
    },
    async claim(owner, leaseMs, reference, limit = 1, markFresh = false) {
      const t = now();
      if (reference !== undefined) {
        const row = rows.get(reference);
        return row && due(row, t) ? [take(row, owner, t, leaseMs, markFresh)] : [];
      }
      return [...rows.values()]
        .filter((row) => due(row, t))
        .sort((a, b) => a.next_attempt_at - b.next_attempt_at)
        .slice(0, limit)
        .map((row) => take(row, owner, t, leaseMs, markFresh));
    },
    async mark(reference, token, leaseMs) {
      const row = rows.get(reference);
      if (!row || row.token !== token) return false;
      const t = now();
      Object.assign(row, mark(row, t), { lease_until: t + leaseMs });
      return true;
    },
    async write(reference, token, change) {
      const row = rows.get(reference);
      if (!row || row.token !== token) return false;
      const t = now();
      const { delayMs, doubted, ...rest } = structuredClone(change);
      Object.assign(row, rest, {
        doubted: doubted ?? row.doubted,
        next_attempt_at: t + Math.round(delayMs),
        updated_at: t,
        lease_until: null,
        owner: null,
      });
      return true;
    },
    async reopen(reference, change) {
      const row = rows.get(reference);
      const t = now();
      if (!row || !change.from.includes(row.state)) return undefined;
      Object.assign(row, {
        owner: null,
        lease_until: null,
        state: change.state,
        reason: change.reason,
        lookups: 0,
        token: row.token + 1,
        sends: change.reopen ? 0 : row.sends,
        answered: change.reopen ? 0 : row.answered,
        lookup_first: row.lookup_first || change.reopen,
        accepted: row.accepted && !change.clearAccepted,
        attempts: [...row.attempts, change.attempt],
        next_attempt_at: t,
        updated_at: t,
      });
      return copy(row);
    },
    async get(reference) {
      const row = rows.get(reference);
      return row && copy(row);
    },
    async list({ state, limit, after, dueBefore, status, following, sentBetween }) {
      const later = (row: OutboxRow) =>
        !after ||
        row.created_at > after.createdAt ||
        (row.created_at === after.createdAt && row.reference > after.reference);
      const followed = (row: OutboxRow) =>
        !following ||
        (sent(row) &&
          (row.final_at === null || row.final_at > following.finalSince) &&
          sentAt(row) >= following.sentSince);
      const within = (row: OutboxRow) =>
        !sentBetween ||
        (sentAt(row) <= sentBetween[1] && (row.last_sent_at ?? sentAt(row)) >= sentBetween[0]);
      return [...rows.values()]
        .filter((row) => state === undefined || row.state === state)
        .filter((row) => status === undefined || row.status === status)
        .filter((row) => followed(row) && within(row))
        .filter((row) => dueBefore === undefined || (open(row) && row.next_attempt_at <= dueBefore))
        .filter(later)
        .sort(order)
        .slice(0, limit)
        .map(copy);
    },
    async count() {
      const counts = new Map<string, { n: number; oldest: number | null }>();
      for (const row of rows.values()) {
        const entry = counts.get(row.state) ?? { n: 0, oldest: null };
        entry.n += 1;
        if (open(row) && (entry.oldest === null || row.created_at < entry.oldest))
          entry.oldest = row.created_at;
        counts.set(row.state, entry);
      }
      return tally([...counts].map(([state, { n, oldest }]) => ({ state, n, oldest })));
    },
    async now() {
      return now();
    },
    async observe(reference, seen, life) {
      const row = rows.get(reference);
      if (!row || row.observed !== seen.observed || row.observed_at !== seen.observed_at) return false;
      Object.assign(row, structuredClone(life), { updated_at: now() });
      return true;
    },
    async find({ transactionId, reference, remarkKey }) {
      const byRemark = remarkKey === undefined ? undefined : remarks.get(remarkKey);
      return [...rows.values()]
        .filter(
          (row) =>
            (row.transaction_id ?? row.result?.payout?.id ?? row.result?.transaction?.id) === transactionId ||
            row.reference === reference ||
            row.reference === byRemark,
        )
        .map(copy);
    },
    async claimDeliveries(owner, leaseMs, limit) {
      const t = now();
      return [...rows.values()]
        .filter((row) => sent(row) && row.observed > row.delivered && free(row, t))
        .sort((a, b) => a.updated_at - b.updated_at)
        .slice(0, limit)
        .map((row) => take(row, owner, t, leaseMs, false));
    },
    async deliver(reference, token, delivery) {
      const row = rows.get(reference);
      if (!row || row.token !== token) return false;
      const t = now();
      const held = delivery.renewMs ?? delivery.retryInMs;
      Object.assign(row, {
        delivered: Math.max(row.delivered, delivery.delivered),
        hook_failures: delivery.hookFailures,
        lease_until: held === undefined ? null : t + held,
        owner: delivery.renewMs === undefined ? null : row.owner,
        ...(delivery.attempts ? { attempts: structuredClone(delivery.attempts) } : {}),
      });
      return true;
    },
    async lease(name, owner, ms) {
      const t = now();
      const held = leases.get(name);
      if (held && held.owner !== owner && held.until >= t) return false;
      leases.set(name, { owner, until: t + ms });
      return true;
    },
  };
}
