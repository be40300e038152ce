import { RequestValidationError } from '../index.js';
import { COLUMN_NAMES, COLUMNS, type Column, named, STATE_LIST } from './sql-columns.js';
import { postgresTombstones, sqliteTombstones } from './sql-tombstones.js';

export { COLUMN_NAMES, type Column, named } from './sql-columns.js';

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
/** The index of open rows by due time: what a claim reads. */
export const dueIndex = (table: string) => indexName(table, 'due');
/** The index of sent rows with changes whose hooks have not run: what a delivery claim reads. */
export const undeliveredIndex = (table: string) => indexName(table, 'undelivered');
const OPEN_LIST = `('pending', 'sending', 'retry')`;
const SENT_LIST = `('created', 'recovered')`;

/** Columns added since the first release of the table (whose other columns every table has). */
export const ADDED_COLUMNS: Column[] = [
  'remark_key',
  'answered',
  'lookup_first',
  'first_sent_at',
  'last_sent_at',
  'clock_doubt_ms',
  'status',
  'status_at',
  'observed_at',
  'uetr',
  'tracking_codes',
  'final_at',
  'transaction_id',
  'changes',
  'observed',
  'delivered',
  'hook_failures',
];

/** Columns that hold JSON, and columns that hold times (besides the stamped ones). */
export const JSON_COLUMNS = new Set<string>(['body', 'result', 'attempts', 'tracking_codes', 'changes']);
export const TIME_COLUMNS = new Set<string>([
  'lease_until',
  'first_sent_at',
  'last_sent_at',
  'status_at',
  'observed_at',
  'final_at',
]);

/**
 * Rows an earlier version wrote that may have been in doubt: the `doubted` column it lacked is set for them when
 * it is added (a payout recorded and never sent is not; any other could have been, as far as the row tells).
 */
export const DOUBTED_BEFORE = `state IN ('sending', 'retry', 'refused', 'not_sent', 'unknown') OR sends > 0 OR lookup_first`;

/** The payouts table alone, under `name`. */
export function mainTable(name: string, dialect: 0 | 1): string {
  const columns = COLUMN_NAMES.map((c) => `  ${c} ${COLUMNS[c][dialect]}`);
  return `CREATE TABLE IF NOT EXISTS ${name} (\n${columns.join(',\n')}\n)`;
}

function createTables(table: string, dialect: 0 | 1): string {
  const text = dialect === 0 ? 'text' : 'TEXT';
  const time = dialect === 0 ? 'timestamptz' : 'INTEGER';
  return `${mainTable(table, dialect)};
CREATE TABLE IF NOT EXISTS ${named(table, 'remarks')} (
  remark_key ${text} PRIMARY KEY,
  reference ${text} NOT NULL,
  created_at ${time} NOT NULL
);
CREATE TABLE IF NOT EXISTS ${named(table, 'leases')} (
  name ${text} PRIMARY KEY,
  owner ${text} NOT NULL,
  lease_until ${time} NOT NULL
);`;
}

/**
 * The listed transaction's id of a row, in SQL: the column once an observation wrote it, before that the POST's
 * answer (`created`) or the row it was found as (`recovered`). Indexed as this expression, and looked up by it.
 */
export const LISTED_ID = [
  `COALESCE(transaction_id, result->'payout'->>'id', result->'transaction'->>'id')`,
  `coalesce(transaction_id, json_extract(result, '$.payout.id'), json_extract(result, '$.transaction.id'))`,
] as const;

function createIndexes(table: string, dialect: 0 | 1): string {
  return `CREATE INDEX IF NOT EXISTS ${dueIndex(table)} ON ${table} (next_attempt_at) WHERE state IN ${OPEN_LIST};
CREATE INDEX IF NOT EXISTS ${indexName(table, 'state')} ON ${table} (state, created_at, reference);
CREATE INDEX IF NOT EXISTS ${indexName(table, 'created')} ON ${table} (created_at, reference);
CREATE INDEX IF NOT EXISTS ${indexName(table, 'following')} ON ${table} (final_at) WHERE state IN ${SENT_LIST};
CREATE INDEX IF NOT EXISTS ${undeliveredIndex(table)} ON ${table} (reference) WHERE observed > delivered;
CREATE INDEX IF NOT EXISTS ${indexName(table, 'transaction')} ON ${table} ((${LISTED_ID[dialect]}));
CREATE INDEX IF NOT EXISTS ${indexName(table, 'status')} ON ${table} (status, created_at, reference);
`;
}

/**
 * SQL close to `remarkKey`, for rows of the first table version whose key was not computed in JavaScript: white
 * space collapsed, trimmed, lower case. It differs where PostgreSQL's regex and `lower()` differ from JavaScript's
 * (a no-break space, non-ASCII capitals in some collations, NFC), which is why `migrate()` computes every key
 * in JavaScript and passes them in (`keys`); this only keys a row written between that read and the upgrade.
 * The first version compared remarks byte for byte: two of its rows whose remarks share a key keep it for the
 * older one; their lookups still tell them apart by amount.
 */
const SQL_REMARK_KEY = `lower(btrim(regexp_replace(match_remark, '\\s+', ' ', 'g')))`;

/** A text literal whatever `standard_conforming_strings` says: an escape string, backslashes and quotes doubled. */
const literal = (text: string) => `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

const KEYS = 'payout_outbox_upgrade_keys';

/**
 * First-version rows' remark keys as computed in JavaScript, as a temporary table dropped at the commit. Outside
 * the `DO` blocks: a value that held their dollar-quote tag would otherwise end them.
 */
function keyedRemarks(keys: ReadonlyArray<readonly [string, string]>): string {
  if (keys.length === 0) return '';
  const values = keys.map(([reference, key]) => `(${literal(reference)}, ${literal(key)})`).join(',\n  ');
  return `CREATE TEMP TABLE ${KEYS} (reference text PRIMARY KEY, remark_key text NOT NULL) ON COMMIT DROP;
INSERT INTO ${KEYS} VALUES
  ${values};
`;
}

/**
 * Upgrades a table of an earlier version in place: epoch-millisecond `bigint` times to `timestamptz`, JSON text to
 * `jsonb`, the state checked (the first version), the columns added since (`ADDED_COLUMNS`: the remark key, the
 * send times, the payout's life after it was sent), `doubted` (set for rows that may have been in doubt), the state
 * check widened to every state (`cancelled`), and each `match_remark` moved to the remarks table (under which key
 * it can never be taken again). Each step runs only when needed, so the script is idempotent.
 */
function upgradePostgres(table: string, keys: ReadonlyArray<readonly [string, string]>): string {
  const times = ['created_at', 'updated_at', 'next_attempt_at', 'lease_until'];
  const json = ['body', 'result', 'attempts'];
  const retype = [
    `ALTER COLUMN attempts DROP DEFAULT`,
    ...times.map((c) => `ALTER COLUMN ${c} TYPE timestamptz USING to_timestamp(${c} / 1000.0)`),
    ...json.map((c) => `ALTER COLUMN ${c} TYPE jsonb USING ${c}::jsonb`),
    `ALTER COLUMN attempts SET DEFAULT '[]'::jsonb`,
    `ADD CONSTRAINT ${indexName(table, 'state_check')} CHECK (state IN (${STATE_LIST}))`,
  ];
  const column = (name: string) =>
    `EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = '${table}'::regclass AND attname = '${name}' AND NOT attisdropped)`;
  return `${keyedRemarks(keys)}DO $upgrade$ BEGIN
  IF (SELECT atttypid FROM pg_attribute WHERE attrelid = '${table}'::regclass AND attname = 'created_at') = 'bigint'::regtype THEN
    ALTER TABLE ${table} ${retype.join(',\n      ')};
  END IF;
END $upgrade$;
ALTER TABLE ${table} ${ADDED_COLUMNS.map((c) => `ADD COLUMN IF NOT EXISTS ${c} ${COLUMNS[c][0]}`).join(', ')};
DO $upgrade$ BEGIN
  IF NOT ${column('doubted')} THEN
    ALTER TABLE ${table} ADD COLUMN doubted ${COLUMNS.doubted[0]};
    UPDATE ${table} SET doubted = true WHERE ${DOUBTED_BEFORE};
  END IF;
END $upgrade$;
${stateCheck(table)}
DO $upgrade$ BEGIN
  IF ${column('match_remark')} THEN
    ${
      keys.length === 0
        ? ''
        : `UPDATE ${table} t SET remark_key = k.remark_key FROM ${KEYS} k WHERE t.reference = k.reference;
    `
    }UPDATE ${table} SET remark_key = ${SQL_REMARK_KEY}
      WHERE match_remark IS NOT NULL AND remark_key IS NULL;
    -- Oldest first: of two rows sharing a key, the older keeps it.
    INSERT INTO ${named(table, 'remarks')} (remark_key, reference, created_at)
      SELECT remark_key, reference, created_at FROM ${table} WHERE match_remark IS NOT NULL
      ORDER BY created_at, reference
      ON CONFLICT (remark_key) DO NOTHING;
    ALTER TABLE ${table} DROP COLUMN match_remark;
  END IF;
END $upgrade$;`;
}

/**
 * A table whose state check predates a state (`cancelled`): the check is replaced by one naming every state. A
 * check that names them all already is left alone, so the step runs once.
 */
function stateCheck(table: string): string {
  const checks = `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = '${table}'::regclass AND contype = 'c'`;
  return `DO $upgrade$ DECLARE c record; BEGIN
  FOR c IN ${checks} LOOP
    IF c.def LIKE '%''pending''%' AND c.def NOT LIKE '%''cancelled''%' THEN
      EXECUTE 'ALTER TABLE ${table} DROP CONSTRAINT ' || quote_ident(c.conname);
    END IF;
  END LOOP;
  IF NOT EXISTS (SELECT 1 FROM (${checks}) k WHERE k.def LIKE '%''cancelled''%') THEN
    ALTER TABLE ${table} ADD CONSTRAINT ${indexName(table, 'state_check')} CHECK (state IN (${STATE_LIST}));
  END IF;
END $upgrade$;`;
}

/**
 * The outbox for PostgreSQL: its tables (payouts, remarks, leases, tombstones and the trigger that keeps them), an
 * upgrade of a table of an earlier version, and the indexes, as one
 * script that runs as one transaction (`migrate()` sends it as one simple query) behind an advisory lock, so
 * two processes migrating at once take turns. Apply it with your own migration tool as it is.
 */
export function postgresOutboxSchema(table = DEFAULT_OUTBOX_TABLE): string {
  return postgresMigration(table, []);
}

/**
 * `postgresOutboxSchema`, with the remark keys of a first-version table's rows computed in JavaScript (`keys`:
 * reference and `remarkKey` of its `match_remark`), as `migrate()` runs it.
 */
export function postgresMigration(table: string, keys: ReadonlyArray<readonly [string, string]>): string {
  checkTable(table);
  return `BEGIN;
SELECT pg_advisory_xact_lock(hashtext('payments-service-sdk outbox migrate ${table}'));
${createTables(table, 0)}
${upgradePostgres(table, keys)}
${postgresTombstones(table)}${createIndexes(table, 0)}COMMIT;
`;
}

/**
 * The outbox for SQLite (`node:sqlite`): the same columns in SQLite's types, the remarks, leases and tombstones
 * tables, the trigger that keeps a tombstone of every deleted row, and the indexes. `migrate()` runs the tables,
 * adds the columns of later versions to an older table, then the tombstones and the indexes (some are on those
 * columns), in one transaction.
 */
export function sqliteOutboxSchema(table = DEFAULT_OUTBOX_TABLE): string {
  return `${sqliteTables(table)}
${sqliteTombstones(checkTable(table))}${sqliteIndexes(table)}`;
}

/** The tables alone, and the indexes alone, for `migrate()`'s upgrade between them. */
export const sqliteTables = (table: string) => createTables(checkTable(table), 1);
export const sqliteIndexes = (table: string) => createIndexes(checkTable(table), 1);

/** The SQLite column definitions, for the upgrade (`ALTER TABLE ... ADD COLUMN`). */
export const sqliteColumn = (c: Column) => COLUMNS[c][1];
