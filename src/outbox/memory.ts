import { OPEN_STATES, type OutboxRow, type PayoutOutboxStore, type PayoutState } from './types.js';

/** Options of `memoryOutboxStore`. */
export interface MemoryOutboxStoreOptions {
  /** The clock, epoch ms (a test's fake clock, say). Default `Date.now`. */
  now?: () => number;
}

const open = (row: OutboxRow) => (OPEN_STATES as readonly string[]).includes(row.state);

/**
 * The outbox in this process's memory, for tests and one-process tools: the same contract as the database
 * stores (claims and fenced writes), and gone when the process ends. Not for money in production.
 */
export function memoryOutboxStore(options: MemoryOutboxStoreOptions = {}): PayoutOutboxStore<never> {
  const now = options.now ?? Date.now;
  const rows = new Map<string, OutboxRow>();
  const remarks = new Set<string>();
  const copy = (row: OutboxRow): OutboxRow => ({ ...row });
  const due = (row: OutboxRow, t: number) =>
    open(row) && row.next_attempt_at <= t && (row.lease_until === null || row.lease_until < t);
  const take = (row: OutboxRow, owner: string, until: number) => {
    Object.assign(row, { owner, token: row.token + 1, lease_until: until });
    return copy(row);
  };

  return {
    async migrate() {},
    async insert(row) {
      const existing = rows.get(row.reference);
      if (existing) return { inserted: false, existing: copy(existing) };
      if (row.match_remark !== null && remarks.has(row.match_remark)) {
        return { inserted: false, remarkTaken: true };
      }
      const t = now();
      rows.set(row.reference, { ...row, created_at: t, updated_at: t, next_attempt_at: t, token: 0 });
      if (row.match_remark !== null) remarks.add(row.match_remark);
      return { inserted: true };
    },
    async claim(owner, leaseMs, reference, limit = 1) {
      const t = now();
      if (reference !== undefined) {
        const row = rows.get(reference);
        return row && due(row, t) ? [take(row, owner, t + leaseMs)] : [];
      }
      return [...rows.values()]
        .filter((row) => due(row, t))
        .sort((a, b) => a.next_attempt_at - b.next_attempt_at)
        .slice(0, limit)
        .map((row) => take(row, owner, t + leaseMs));
    },
    async mark(reference, token, leaseMs) {
      const row = rows.get(reference);
      if (!row || row.token !== token) return false;
      const t = now();
      Object.assign(row, { state: 'sending', sends: row.sends + 1, lease_until: t + leaseMs, updated_at: t });
      return true;
    },
    async write(reference, token, change) {
      const row = rows.get(reference);
      if (!row || row.token !== token) return false;
      const t = now();
      const { delayMs, ...rest } = change;
      Object.assign(row, rest, {
        next_attempt_at: t + Math.round(delayMs),
        updated_at: t,
        lease_until: null,
        owner: null,
      });
      return true;
    },
    async get(reference) {
      const row = rows.get(reference);
      return row && copy(row);
    },
    async list({ state, limit, after }: { state?: PayoutState; limit: number; after?: string }) {
      const all = [...rows.values()]
        .filter((row) => state === undefined || row.state === state)
        .sort((a, b) => a.created_at - b.created_at || (a.reference < b.reference ? -1 : 1));
      const cursor = after === undefined ? undefined : rows.get(after);
      const later = (row: OutboxRow) =>
        !cursor ||
        row.created_at > cursor.created_at ||
        (row.created_at === cursor.created_at && row.reference > cursor.reference);
      return all.filter(later).slice(0, limit).map(copy);
    },
  };
}
