import { RequestValidationError } from '../index.js';
import type { OutboxRow } from './types.js';

/** The table's default name. */
export const DEFAULT_OUTBOX_TABLE = 'payout_outbox';

/** A table name, optionally schema-qualified: checked, because it is written into the SQL. */
export function checkTable(table: string): string {
  if (typeof table !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table)) {
    throw new RequestValidationError([
      { path: ['table'], message: 'must be an identifier (letters, digits, _), optionally schema.table' },
    ]);
  }
  return table;
}

const indexName = (table: string, suffix: string) => `${table.replace('.', '_')}_${suffix}`;
const bare = (table: string) => table.split('.').pop()!;

/**
 * The outbox table for PostgreSQL. Times are epoch milliseconds (`bigint`), read from the database's own clock,
 * so that workers on machines whose clocks disagree still agree on when a lease lapses. `match_remark` is
 * unique: two payouts the listing could not tell apart cannot both be recorded.
 */
export function postgresOutboxSchema(table = DEFAULT_OUTBOX_TABLE): string {
  checkTable(table);
  return `CREATE TABLE IF NOT EXISTS ${table} (
  reference text PRIMARY KEY,
  state text NOT NULL,
  currency text NOT NULL,
  body text NOT NULL,
  match_remark text UNIQUE,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  next_attempt_at bigint NOT NULL,
  lease_until bigint,
  owner text,
  token bigint NOT NULL DEFAULT 0,
  sends integer NOT NULL DEFAULT 0,
  lookups integer NOT NULL DEFAULT 0,
  accepted boolean NOT NULL DEFAULT false,
  reason text,
  result text,
  attempts text NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS ${bare(indexName(table, 'due'))} ON ${table} (next_attempt_at)
  WHERE state IN ('pending', 'sending', 'retry');
CREATE INDEX IF NOT EXISTS ${bare(indexName(table, 'state'))} ON ${table} (state, created_at, reference);
`;
}

/** The outbox table for SQLite (`node:sqlite`): the same columns, in SQLite's types. */
export function sqliteOutboxSchema(table = DEFAULT_OUTBOX_TABLE): string {
  checkTable(table);
  return `CREATE TABLE IF NOT EXISTS ${table} (
  reference TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  currency TEXT NOT NULL,
  body TEXT NOT NULL,
  match_remark TEXT UNIQUE,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER,
  owner TEXT,
  token INTEGER NOT NULL DEFAULT 0,
  sends INTEGER NOT NULL DEFAULT 0,
  lookups INTEGER NOT NULL DEFAULT 0,
  accepted INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  result TEXT,
  attempts TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS ${indexName(table, 'due')} ON ${table} (next_attempt_at)
  WHERE state IN ('pending', 'sending', 'retry');
CREATE INDEX IF NOT EXISTS ${indexName(table, 'state')} ON ${table} (state, created_at, reference);
`;
}

export const COLUMNS = [
  'reference',
  'state',
  'currency',
  'body',
  'match_remark',
  'created_at',
  'updated_at',
  'next_attempt_at',
  'lease_until',
  'owner',
  'token',
  'sends',
  'lookups',
  'accepted',
  'reason',
  'result',
  'attempts',
] as const;

/** A row as a driver returns it (bigint columns come back as strings from pg, booleans as 0/1 from SQLite). */
export function toRow(raw: Record<string, unknown>): OutboxRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    reference: String(raw.reference),
    state: raw.state as OutboxRow['state'],
    currency: String(raw.currency),
    body: String(raw.body),
    match_remark: (raw.match_remark as string | null) ?? null,
    created_at: Number(raw.created_at),
    updated_at: Number(raw.updated_at),
    next_attempt_at: Number(raw.next_attempt_at),
    lease_until: num(raw.lease_until),
    owner: (raw.owner as string | null) ?? null,
    token: Number(raw.token),
    sends: Number(raw.sends),
    lookups: Number(raw.lookups),
    accepted: raw.accepted === true || raw.accepted === 1 || raw.accepted === 1n,
    reason: (raw.reason as string | null) ?? null,
    result: (raw.result as string | null) ?? null,
    attempts: String(raw.attempts ?? '[]'),
  };
}

/** The row's values in `COLUMNS` order, as a driver takes them. */
export function rowValues(row: OutboxRow, booleanAsInteger = false): unknown[] {
  return COLUMNS.map((c) => (c === 'accepted' && booleanAsInteger ? Number(row[c]) : row[c]));
}
