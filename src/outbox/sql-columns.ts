import { STATES } from './types.js';

/** The table's companion names: its remarks table and its indexes. */
export const named = (table: string, suffix: string) => `${table}_${suffix}`;
/** The states, as an SQL list. */
export const STATE_LIST = STATES.map((s) => `'${s}'`).join(', ');

/** PostgreSQL's clock, to the millisecond (a JavaScript Date's precision, so keyset cursors compare exactly). */
export const NOW = `date_trunc('milliseconds', clock_timestamp())`;

/**
 * The columns, in each dialect's types. PostgreSQL: times `timestamptz` (read from the database's clock, so
 * workers whose clocks disagree still agree on leases), JSON in `jsonb`, the state checked. SQLite: times in
 * epoch milliseconds, JSON as text (its own types).
 */
export const COLUMNS = {
  reference: ['text PRIMARY KEY', 'TEXT PRIMARY KEY'],
  state: [`text NOT NULL CHECK (state IN (${STATE_LIST}))`, `TEXT NOT NULL CHECK (state IN (${STATE_LIST}))`],
  currency: ['text NOT NULL', 'TEXT NOT NULL'],
  body: ['jsonb NOT NULL', 'TEXT NOT NULL'],
  remark_key: ['text', 'TEXT'],
  created_at: ['timestamptz NOT NULL', 'INTEGER NOT NULL'],
  updated_at: ['timestamptz NOT NULL', 'INTEGER NOT NULL'],
  next_attempt_at: ['timestamptz NOT NULL', 'INTEGER NOT NULL'],
  lease_until: ['timestamptz', 'INTEGER'],
  owner: ['text', 'TEXT'],
  token: ['bigint NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
  sends: ['integer NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
  answered: ['integer NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
  lookups: ['integer NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
  accepted: ['boolean NOT NULL DEFAULT false', 'INTEGER NOT NULL DEFAULT 0'],
  lookup_first: ['boolean NOT NULL DEFAULT false', 'INTEGER NOT NULL DEFAULT 0'],
  // A POST was ever in doubt, across re-opens: a later 409 is then unknown, not a refusal.
  doubted: ['boolean NOT NULL DEFAULT false', 'INTEGER NOT NULL DEFAULT 0'],
  first_sent_at: ['timestamptz', 'INTEGER'],
  last_sent_at: ['timestamptz', 'INTEGER'],
  clock_doubt_ms: ['bigint NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
  reason: ['text', 'TEXT'],
  result: ['jsonb', 'TEXT'],
  attempts: [`jsonb NOT NULL DEFAULT '[]'`, `TEXT NOT NULL DEFAULT '[]'`],
  // The payout's own life after it was sent, as observed (times by the service's clock: the rows' updated_at).
  status: ['text', 'TEXT'],
  status_at: ['timestamptz', 'INTEGER'],
  observed_at: ['timestamptz', 'INTEGER'],
  uetr: ['text', 'TEXT'],
  tracking_codes: ['jsonb', 'TEXT'],
  final_at: ['timestamptz', 'INTEGER'],
  transaction_id: ['text', 'TEXT'],
  // Changes observed (`observed`, the last one's seq) apart from those whose hooks ran (`delivered`).
  changes: [`jsonb NOT NULL DEFAULT '[]'`, `TEXT NOT NULL DEFAULT '[]'`],
  observed: ['integer NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
  delivered: ['integer NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
  hook_failures: ['integer NOT NULL DEFAULT 0', 'INTEGER NOT NULL DEFAULT 0'],
} as const;

export type Column = keyof typeof COLUMNS;
export const COLUMN_NAMES = Object.keys(COLUMNS) as Column[];
/** A column's bare type in a dialect (0 PostgreSQL, 1 SQLite), without its constraints. */
export const columnType = (c: Column, dialect: 0 | 1) => COLUMNS[c][dialect].split(' ')[0]!;
