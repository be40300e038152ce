/**
 * The upgrade path: a table made by the first version's `migrate()` (epoch-ms `bigint` times, JSON in `text`,
 * `match_remark` unique), with a row in every state, is upgraded in place by today's `migrate()`, twice; every
 * row reads back the same, its remark stays taken, and the outbox goes on settling it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, type RequestValidationError } from '../../src/index.js';
import {
  createPayoutOutbox,
  type PayoutOutboxStore,
  type PayoutRecord,
  postgresOutboxStore,
  STATES,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

/** The first version's table, as its `postgresOutboxSchema()` / `sqliteOutboxSchema()` wrote it. */
function firstVersion(table: string, postgres: boolean): string {
  const [text, time, count, flag, no] = postgres
    ? ['text', 'bigint', 'integer', 'boolean', 'false']
    : ['TEXT', 'INTEGER', 'INTEGER', 'INTEGER', '0'];
  return `CREATE TABLE IF NOT EXISTS ${table} (
  reference ${text} PRIMARY KEY, state ${text} NOT NULL, currency ${text} NOT NULL, body ${text} NOT NULL,
  match_remark ${text} UNIQUE, created_at ${time} NOT NULL, updated_at ${time} NOT NULL,
  next_attempt_at ${time} NOT NULL, lease_until ${time}, owner ${text}, token ${time} NOT NULL DEFAULT 0,
  sends ${count} NOT NULL DEFAULT 0, lookups ${count} NOT NULL DEFAULT 0, accepted ${flag} NOT NULL DEFAULT ${no},
  reason ${text}, result ${text}, attempts ${text} NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (next_attempt_at) WHERE state IN ('pending', 'sending', 'retry');
CREATE INDEX IF NOT EXISTS ${table}_state ON ${table} (state, created_at, reference);`;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

/** One row per state, as the first version stored them. */
function oldRows(): unknown[][] {
  return STATES.map((state, i) => {
    const ngn = i % 2 === 0;
    const reference = `old-${state}`;
    const remark = ngn ? `Old invoice ${i}` : null;
    const body = JSON.stringify({
      body: {
        amount: 100 + i,
        currency: ngn ? 'NGN' : 'USD',
        beneficiary: BENEFICIARY,
        externalReference: reference,
        ...(remark ? { remark } : {}),
      },
    });
    const result = state === 'created' ? JSON.stringify({ payout: { id: `p-${i}` } }) : null;
    const attempts = JSON.stringify([{ at: new Date(T0).toISOString(), kind: 'post', status: 503 }]);
    return [
      reference,
      state,
      ngn ? 'NGN' : 'USD',
      body,
      remark,
      T0 + i,
      T0 + i + 1,
      T0 + i + 2,
      null,
      null,
      i,
      i % 3,
      0,
      false,
      state === 'unknown' ? 'why' : null,
      result,
      attempts,
    ];
  });
}

const COLUMNS =
  'reference, state, currency, body, match_remark, created_at, updated_at, next_attempt_at, lease_until, owner, token, sends, lookups, accepted, reason, result, attempts';

/** What must read back the same. */
const view = (r: PayoutRecord) => ({
  reference: r.reference,
  state: r.state,
  body: r.body,
  matchRemark: r.matchRemark,
  createdAt: r.createdAt.getTime(),
  updatedAt: r.updatedAt.getTime(),
  nextAttemptAt: r.nextAttemptAt.getTime(),
  sends: r.sends,
  accepted: r.accepted,
  reason: r.reason,
  payout: r.payout,
  attempts: r.attempts,
});

async function upgradeAndCheck(store: PayoutOutboxStore<unknown>) {
  const mock = createPaymentsMock();
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel: 'off',
  });
  const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
  await store.migrate();
  await store.migrate();
  const records = await outbox.list({ limit: 100 });
  expect(records.map(view)).toEqual(
    oldRows().map((row) => {
      const [
        reference,
        state,
        ,
        body,
        remark,
        created,
        updated,
        next,
        ,
        ,
        ,
        sends,
        ,
        ,
        reason,
        result,
        attempts,
      ] = row as [
        string,
        string,
        string,
        string,
        string | null,
        number,
        number,
        number,
        null,
        null,
        number,
        number,
        number,
        boolean,
        string | null,
        string | null,
        string,
      ];
      return {
        reference,
        state,
        // The first version kept the amount as a number; it reads back as its decimal text, the same number sent.
        body: { ...JSON.parse(body).body, amount: String(JSON.parse(body).body.amount) },
        matchRemark: remark ?? undefined,
        createdAt: created,
        updatedAt: updated,
        nextAttemptAt: next,
        sends,
        accepted: false,
        reason: reason ?? undefined,
        payout: result ? JSON.parse(result).payout : undefined,
        attempts: JSON.parse(attempts),
      };
    }),
  );
  // The remark of an upgraded row stays taken.
  const twin = await rejection(
    outbox.enqueue({ amount: '5.00', currency: 'NGN', beneficiary: BENEFICIARY, remark: 'old INVOICE 0' }),
  );
  expect((twin as RequestValidationError).field).toBe('remark');
  // And the outbox goes on with the open rows.
  const summary = await outbox.work({ until: 'drained', drainWithinMs: 0 });
  expect(summary.left).toBe(0);
}

describe('sqlite: a first-version table is upgraded in place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-upgrade-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('every row reads back the same', async () => {
    const database = new DatabaseSync(join(dir, 'old.db'));
    database.exec(firstVersion('payout_outbox', false));
    const insert = database.prepare(
      `INSERT INTO payout_outbox (${COLUMNS}) VALUES (${COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})`,
    );
    for (const row of oldRows())
      insert.run(...(row.map((v) => (typeof v === 'boolean' ? Number(v) : v)) as never[]));
    await upgradeAndCheck(sqliteOutboxStore({ database }));
  });
});

describe.runIf(postgresAvailable())('postgres: a first-version table is upgraded in place', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });

  it('every row reads back the same, and two processes migrating at once take turns', async () => {
    await pool.query(firstVersion('payout_outbox', true));
    for (const row of oldRows()) {
      await pool.query(
        `INSERT INTO payout_outbox (${COLUMNS}) VALUES (${COLUMNS.split(',')
          .map((_, i) => `$${i + 1}`)
          .join(', ')})`,
        row,
      );
    }
    const store = postgresOutboxStore({ client: pool });
    await Promise.all([store.migrate(), postgresOutboxStore({ client: pool }).migrate()]);
    await upgradeAndCheck(store);
  });
});
