import { OutboxEnvironmentError } from './environment-error.js';
import { postgresInsert } from './postgres-insert.js';
import { FREE, MS, NOW, postgresLife } from './postgres-life.js';
import { firstVersionKeys } from './postgres-upgrade.js';
import { rowFrom, tally, tombstoneFrom } from './record.js';
import { checkTable, DEFAULT_OUTBOX_TABLE, postgresMigration } from './sql.js';
import { archiveSql, tombstonesOf } from './sql-tombstones.js';
import type { OutboxWrite, PayoutOutboxStore } from './types.js';

/**
 * What the PostgreSQL store needs of a client: `query(text, values)` resolving `{ rows }`. `pg`'s `Pool`,
 * `Client` and `PoolClient` have this shape; wrap others (postgres.js: see docs/payouts-at-scale.md).
 */
export interface PostgresQueryable {
  /** Runs a statement with `$1`-style parameters (without values: a script of several statements). */
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** Options of `postgresOutboxStore`. */
export interface PostgresOutboxStoreOptions {
  /** Used for every statement but an `insert` given its own transaction's client. */
  client: PostgresQueryable;
  /** Table name, optionally `schema.table`. Default `payout_outbox` (and `payout_outbox_remarks`). */
  table?: string;
  /**
   * The outbox assumes a committed mark ("this payout may have been sent") survives a crash and a failover: true
   * on a single node or with synchronous replication, with `synchronous_commit` on. With asynchronous standbys
   * (`pg_stat_replication` lists some and `synchronous_standby_names` is empty, or `synchronous_commit` is
   * `local`) a promotion can lose it, and with `synchronous_commit = off` a crash can; the next worker would then
   * trust a row that says "never sent". The store refuses to start there unless this is `true`: every first POST
   * is then preceded by a lookup too (slower, and a refusal of it is `unknown`).
   */
  lookupBeforeFirstSend?: boolean;
}

const OPEN = `state IN ('pending', 'sending', 'retry')`;
const SENT_AT = 'COALESCE(first_sent_at, created_at)';

/** Why a committed write may not survive a crash or a failover here, or undefined. */
async function replicationRisk(client: PostgresQueryable): Promise<string | undefined> {
  const { rows } = await client.query(
    `SELECT (SELECT count(*) FROM pg_stat_replication)::int AS standbys,
            current_setting('synchronous_standby_names') AS names,
            current_setting('synchronous_commit') AS commit`,
  );
  const { standbys, names, commit } = rows[0] as { standbys: number; names: string; commit: string };
  // Acknowledged before its WAL is written: a crash of this one server can lose it too.
  if (commit === 'off') return 'synchronous_commit is off, so a crash can lose a commit already acknowledged';
  if (standbys === 0) return undefined;
  if (String(names).trim() === '') {
    return `${standbys} standby(s) replicate asynchronously (synchronous_standby_names is empty)`;
  }
  if (commit === 'local') return 'synchronous_commit is local, so commits do not wait for the standbys';
  return undefined;
}

/**
 * The outbox on PostgreSQL. A claim is one `UPDATE ... RETURNING`: the row lock it takes makes a second claimant
 * wait, and then re-read the row, whose lease is no longer free. `FOR UPDATE SKIP LOCKED` lets many workers
 * take different rows at once without queueing behind each other.
 */
export function postgresOutboxStore(
  options: PostgresOutboxStoreOptions,
): PayoutOutboxStore<PostgresQueryable> & { readonly lookupBeforeFirstSend: boolean } {
  const { client } = options;
  const table = checkTable(options.table ?? DEFAULT_OUTBOX_TABLE);
  const lookupBeforeFirstSend = options.lookupBeforeFirstSend === true;
  const rows = async (text: string, values: unknown[], on: PostgresQueryable = client) =>
    (await on.query(text, values)).rows.map(rowFrom);
  let checked: Promise<void> | undefined;
  /** Refuses to run where a failover can lose a commit, unless every first send is looked up first. */
  const check = () => {
    checked ??= (async () => {
      if (lookupBeforeFirstSend) return;
      const risk = await replicationRisk(client);
      if (risk) {
        const message = `cannot keep payouts safe across a failover: ${risk}, so a promoted standby may have lost the record that a payout was sent. Use synchronous replication (or one node), or pass lookupBeforeFirstSend: true to look every payout up before its first POST`;
        throw new OutboxEnvironmentError('lookupBeforeFirstSend', message);
      }
    })();
    // Asked again after a failure (the database restarting, say), until it has been answered once.
    checked.catch(() => {
      checked = undefined;
    });
    return checked;
  };
  /**
   * The claim: the rows picked and locked first (with whether each is fresh, read as they stand once locked),
   * then leased, and the fresh ones marked, in one statement (PostgreSQL 15's RETURNING shows no old values).
   */
  const claimSql = (which: string, tail: string) => {
    const fresh = (set: string, otherwise: string) => `CASE WHEN p.fresh THEN ${set} ELSE ${otherwise} END`;
    return `WITH picked AS (
      SELECT reference, (state = 'pending' AND sends = 0 AND NOT lookup_first AND $4::boolean) AS fresh
      FROM ${table} WHERE ${which} AND ${OPEN} AND ${FREE} AND next_attempt_at <= ${NOW} ${tail})
    UPDATE ${table} t SET owner = $3, token = t.token + 1, lease_until = ${NOW} + $2 ${MS},
      state = ${fresh(`'sending'`, 't.state')}, sends = t.sends + ${fresh('1', '0')},
      first_sent_at = ${fresh(`COALESCE(t.first_sent_at, ${NOW})`, 't.first_sent_at')},
      last_sent_at = ${fresh(NOW, 't.last_sent_at')}, updated_at = ${fresh(NOW, 't.updated_at')}
    FROM picked p WHERE t.reference = p.reference RETURNING t.*, p.fresh AS marked`;
  };

  return {
    lookupBeforeFirstSend,
    async migrate() {
      await client.query(postgresMigration(table, await firstVersionKeys(client, table)));
      await check();
    },
    insert: postgresInsert(client, table),
    async archive(before, limit) {
      const { rows: gone } = await client.query(archiveSql(table, '$1', '$2', ' FOR UPDATE SKIP LOCKED'), [
        new Date(before),
        limit,
      ]);
      return gone.map((r) => String(r.reference));
    },
    async tombstone(reference) {
      const { rows: found } = await client.query(
        `SELECT * FROM ${tombstonesOf(table)} b
         WHERE reference = $1 AND NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.reference = b.reference)`,
        [reference],
      );
      return found[0] && tombstoneFrom(found[0]);
    },
    async claim(owner, leaseMs, reference, limit = 1, markFresh = false) {
      await check();
      // A row locked by another claimant is waited for by reference (then re-read: its lease is taken), and
      // skipped in a batch.
      const [which, tail] =
        reference === undefined
          ? ['TRUE', 'ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED']
          : ['reference = $1', 'FOR UPDATE'];
      return rows(claimSql(which, tail), [reference ?? limit, leaseMs, owner, markFresh]);
    },
    async mark(reference, token, leaseMs) {
      const result = await client.query(
        `UPDATE ${table} SET state = 'sending', sends = sends + 1, lease_until = ${NOW} + $2 ${MS},
           first_sent_at = COALESCE(first_sent_at, ${NOW}), last_sent_at = ${NOW}, updated_at = ${NOW}
         WHERE reference = $1 AND token = $3 RETURNING reference`,
        [reference, leaseMs, token],
      );
      return result.rows.length === 1;
    },
    async write(reference, token, change: OutboxWrite) {
      const result = await client.query(
        `UPDATE ${table} SET state = $3, sends = $4, answered = $5, lookups = $6, accepted = $7,
           lookup_first = $8, reason = $9, result = $10, attempts = $11, clock_doubt_ms = $13,
           last_sent_at = COALESCE(to_timestamp($14::double precision / 1000), last_sent_at),
           doubted = COALESCE($15::boolean, doubted),
           next_attempt_at = ${NOW} + $12 ${MS}, updated_at = ${NOW}, lease_until = NULL, owner = NULL
         WHERE reference = $1 AND token = $2 RETURNING reference`,
        [
          reference,
          token,
          change.state,
          change.sends,
          change.answered,
          change.lookups,
          change.accepted,
          change.lookup_first,
          change.reason,
          change.result === null ? null : JSON.stringify(change.result),
          JSON.stringify(change.attempts),
          Math.round(change.delayMs),
          Math.round(change.clock_doubt_ms),
          change.last_sent_at ?? null,
          change.doubted ?? null,
        ],
      );
      return result.rows.length === 1;
    },
    async reopen(reference, change) {
      const [row] = await rows(
        `UPDATE ${table} SET state = $2, reason = $3, lookups = 0, token = token + 1,
           sends = CASE WHEN $4::boolean THEN 0 ELSE sends END,
           answered = CASE WHEN $4::boolean THEN 0 ELSE answered END,
           lookup_first = lookup_first OR $4::boolean, accepted = accepted AND NOT $5::boolean,
           attempts = attempts || $6::jsonb, next_attempt_at = ${NOW}, updated_at = ${NOW},
           owner = NULL, lease_until = NULL
         WHERE reference = $1 AND state = ANY($7::text[]) RETURNING *`,
        [
          reference,
          change.state,
          change.reason,
          change.reopen,
          change.clearAccepted,
          JSON.stringify([change.attempt]),
          change.from,
        ],
      );
      return row;
    },
    async get(reference) {
      return (await rows(`SELECT * FROM ${table} WHERE reference = $1`, [reference]))[0];
    },
    async list({ state, limit, after, dueBefore, status, following, sentBetween }) {
      const at = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));
      return rows(
        `SELECT * FROM ${table} WHERE ($1::text IS NULL OR state = $1)
           AND ($3::timestamptz IS NULL OR (created_at, reference) > ($3::timestamptz, $4::text))
           AND ($5::timestamptz IS NULL OR (${OPEN} AND next_attempt_at <= $5::timestamptz))
           AND ($6::text IS NULL OR status = $6)
           AND ($7::timestamptz IS NULL OR (state IN ('created', 'recovered') AND ${SENT_AT} >= $7
             AND (final_at IS NULL OR final_at > $8::timestamptz)))
           AND ($9::timestamptz IS NULL OR (${SENT_AT} <= $10::timestamptz AND COALESCE(last_sent_at, ${SENT_AT}) >= $9))
         ORDER BY created_at, reference LIMIT $2`,
        [
          state ?? null,
          limit,
          at(after?.createdAt),
          after?.reference ?? null,
          at(dueBefore),
          status ?? null,
          at(following?.sentSince),
          at(following?.finalSince),
          at(sentBetween?.[0]),
          at(sentBetween?.[1]),
        ],
      );
    },
    async count() {
      const { rows: counted } = await client.query(
        `SELECT state, count(*)::int AS n, min(created_at) FILTER (WHERE ${OPEN}) AS oldest
         FROM ${table} GROUP BY state`,
      );
      return tally(counted);
    },
    async now() {
      const {
        rows: [row],
      } = await client.query(`SELECT ${NOW} AS now`);
      return (row!.now as Date).getTime();
    },
    ...postgresLife(client, table),
  };
}
