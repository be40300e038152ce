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

/**
 * The columns, written once for both databases in neutral types: `text`, `time` (epoch milliseconds), `count`
 * and `flag`. Each dialect names the types its way (PostgreSQL's `bigint`/`boolean`, SQLite's integers).
 */
const TABLE = {
  reference: 'text PRIMARY KEY',
  state: 'text NOT NULL',
  currency: 'text NOT NULL',
  body: 'text NOT NULL',
  match_remark: 'text UNIQUE',
  created_at: 'time NOT NULL',
  updated_at: 'time NOT NULL',
  next_attempt_at: 'time NOT NULL',
  lease_until: 'time',
  owner: 'text',
  token: 'time NOT NULL DEFAULT 0',
  sends: 'count NOT NULL DEFAULT 0',
  lookups: 'count NOT NULL DEFAULT 0',
  accepted: 'flag NOT NULL DEFAULT false',
  reason: 'text',
  result: 'text',
  attempts: "text NOT NULL DEFAULT '[]'",
} as const;

export const COLUMNS = Object.keys(TABLE) as (keyof typeof TABLE)[];

type Dialect = Record<'text' | 'time' | 'count' | 'flag' | 'false', string>;
const POSTGRES: Dialect = { text: 'text', time: 'bigint', count: 'integer', flag: 'boolean', false: 'false' };
const SQLITE: Dialect = { text: 'TEXT', time: 'INTEGER', count: 'INTEGER', flag: 'INTEGER', false: '0' };

function outboxSchema(table: string, dialect: Dialect): string {
  checkTable(table);
  const columns = Object.entries(TABLE).map(
    ([name, def]) =>
      `  ${name} ${def.replace(/^(text|time|count|flag)\b/, (t) => dialect[t as 'text']).replace(/\bfalse$/, dialect.false)}`,
  );
  return `CREATE TABLE IF NOT EXISTS ${table} (
${columns.join(',\n')}
);
CREATE INDEX IF NOT EXISTS ${indexName(table, 'due')} ON ${table} (next_attempt_at)
  WHERE state IN ('pending', 'sending', 'retry');
CREATE INDEX IF NOT EXISTS ${indexName(table, 'state')} ON ${table} (state, created_at, reference);
`;
}

/**
 * The outbox table for PostgreSQL. Times are epoch milliseconds (`bigint`), read from the database's own clock,
 * so that workers on machines whose clocks disagree still agree on when a lease lapses. `match_remark` is
 * unique: two payouts the listing could not tell apart cannot both be recorded.
 */
export function postgresOutboxSchema(table = DEFAULT_OUTBOX_TABLE): string {
  return outboxSchema(table, POSTGRES);
}

/** The outbox table for SQLite (`node:sqlite`): the same columns, in SQLite's types. */
export function sqliteOutboxSchema(table = DEFAULT_OUTBOX_TABLE): string {
  return outboxSchema(table, SQLITE);
}

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
