import { type Column, columnType, NOW, named } from './sql-columns.js';

/** What a tombstone keeps of a row: what the payout was and how it ended; not its audit trail or changes. */
export const KEPT: readonly Column[] = [
  'reference',
  'state',
  'currency',
  'body',
  'remark_key',
  'created_at',
  'updated_at',
  'sends',
  'answered',
  'accepted',
  'reason',
  'result',
  'status',
  'status_at',
  'final_at',
  'uetr',
  'tracking_codes',
  'transaction_id',
];

/** The states `archive` takes: final, with nothing left for a person to decide (`unknown` stays). */
export const ARCHIVED_STATES: readonly string[] = [
  'created',
  'recovered',
  'refused',
  'not_sent',
  'cancelled',
];

/** The tombstones table of an outbox table. */
export const tombstonesOf = (table: string) => named(table, 'tombstones');

/** A table name as a schema prefix (with its dot, or empty) and the bare name. */
function split(table: string): [string, string] {
  const dot = table.indexOf('.');
  return dot < 0 ? ['', table] : [table.slice(0, dot + 1), table.slice(dot + 1)];
}

/**
 * One row per reference ever deleted from the outbox (PostgreSQL: per reference ever recorded, the reservation an
 * insert makes, filled in when the row goes). Every column but the key may be empty: a reference known only from
 * the remarks table, or reserved by a row still live.
 */
function createTable(table: string, dialect: 0 | 1): string {
  const columns = KEPT.map((c) => `${c} ${columnType(c, dialect)}${c === 'reference' ? ' PRIMARY KEY' : ''}`);
  columns.push(`archived_at ${columnType('created_at', dialect)}`);
  return `CREATE TABLE IF NOT EXISTS ${tombstonesOf(table)} (\n  ${columns.join(',\n  ')}\n)`;
}

/**
 * What the delete trigger runs, in the statement that deletes the row: the row as it went, and when. Any
 * DELETE keeps it (the operator's own SQL too), and a delete whose tombstone cannot be written fails whole.
 */
function keep(tombstones: string, now: string): string {
  const columns = [...KEPT, 'archived_at'];
  const updates = columns.filter((c) => c !== 'reference').map((c) => `${c} = excluded.${c}`);
  return `INSERT INTO ${tombstones} (${columns.join(', ')})
    VALUES (${KEPT.map((c) => `OLD.${c}`).join(', ')}, ${now})
    ON CONFLICT (reference) DO UPDATE SET ${updates.join(', ')}`;
}

/**
 * The references of rows deleted before tombstones were kept, as far as the remarks table knows them (NGN and
 * other service-assigned currencies): the reference and its remark key alone. Run when the table is created.
 */
export function seedTombstones(table: string): string {
  return `INSERT INTO ${tombstonesOf(table)} (reference, remark_key, created_at)
  SELECT r.reference, r.remark_key, r.created_at FROM ${named(table, 'remarks')} r
  WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.reference = r.reference)
  ON CONFLICT (reference) DO NOTHING`;
}

/**
 * PostgreSQL: the table (created and seeded once), the trigger's function (replaced on every migration, so it
 * keeps up with the columns) and the trigger. Part of the migration script, after the upgrade.
 */
export function postgresTombstones(table: string): string {
  const trigger = `${split(table)[1]}_tombstone`;
  return `DO $tombstones$ BEGIN
  IF to_regclass('${tombstonesOf(table)}') IS NULL THEN
    ${createTable(table, 0)};
    ${seedTombstones(table)};
  END IF;
END $tombstones$;
CREATE OR REPLACE FUNCTION ${table}_tombstone() RETURNS trigger LANGUAGE plpgsql AS $tombstone$ BEGIN
  ${keep(tombstonesOf(table), NOW)};
  RETURN NULL;
END $tombstone$;
DO $tombstones$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = '${table}'::regclass AND tgname = '${trigger}') THEN
    CREATE TRIGGER ${trigger} AFTER DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_tombstone();
  END IF;
END $tombstones$;
`;
}

/** The database's clock in epoch milliseconds, as SQLite's columns hold times (every SQLite version has it). */
const SQLITE_NOW = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

/**
 * SQLite: the table and the trigger. A trigger's statements name tables of its own schema, unqualified.
 * `migrate()` seeds the table when it creates it (`seedTombstones`).
 */
export function sqliteTombstones(table: string): string {
  const [schema, bare] = split(table);
  return `${createTable(table, 1)};
CREATE TRIGGER IF NOT EXISTS ${schema}${bare}_tombstone AFTER DELETE ON ${bare} FOR EACH ROW BEGIN
  ${keep(tombstonesOf(bare), SQLITE_NOW)};
END;
`;
}

/**
 * The archive step: final payouts last changed before `before`, oldest first, at most `limit`, deleted (each
 * leaves its tombstone); kept are open and `unknown` ones, and sent ones whose observed status is not final or
 * whose changes' hooks have not all run. `lock` skips rows another transaction holds (PostgreSQL).
 */
export function archiveSql(table: string, before: string, limit: string, lock = ''): string {
  return `DELETE FROM ${table} WHERE reference IN (
    SELECT reference FROM ${table}
    WHERE state IN (${ARCHIVED_STATES.map((s) => `'${s}'`).join(', ')}) AND created_at < ${before}
      AND updated_at < ${before} AND observed <= delivered AND (status IS NULL OR final_at IS NOT NULL)
    ORDER BY created_at LIMIT ${limit}${lock})
  RETURNING reference`;
}
