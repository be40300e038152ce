/**
 * The upgrade path: a table made by the first version's `migrate()` (epoch-ms `bigint` times, JSON in `text`,
 * `match_remark` unique), with a row in every state, is upgraded in place by today's `migrate()`, twice; every
 * row reads back the same, its remark stays taken, and the outbox goes on settling it. A table of the version
 * before a payout's life was followed (the remarks table, timestamptz and jsonb, no status columns) gets the
 * new columns the same way, and its sent rows are followed from then on; it gets the tombstones too, seeded with
 * the references of deleted rows its remarks table knows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, type RequestValidationError, type Transaction } from '../../src/index.js';
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
        // The first version kept the amount as a number; it reads back as its decimal text in the currency's
        // digits (100 NGN is '100.00'), the same number sent.
        body: { ...JSON.parse(body).body, amount: `${JSON.parse(body).body.amount}.00` },
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
  await followsAnUpgradedRow(outbox, store, 'old-created');
}

/** A sent row of the older table is followed: an observation of its payout lands in the new columns. */
async function followsAnUpgradedRow(
  outbox: ReturnType<typeof createPayoutOutbox>,
  store: PayoutOutboxStore<unknown>,
  reference: string,
) {
  const created = (await outbox.get(reference))!;
  expect(created).toMatchObject({ changes: [], delivered: 0 });
  expect(created.status).toBeUndefined();
  const row: Transaction = {
    id: created.payout!.id,
    transaction_type: 'withdrawal',
    status: 'completed',
    created_at: new Date(T0).toISOString(),
    updated_at: new Date(T0 + 60_000).toISOString(),
  };
  const { changes } = await outbox.observe(row);
  expect(changes).toMatchObject([{ kind: 'status', status: 'completed', seq: 1, final: true }]);
  expect(await outbox.get(created.reference)).toMatchObject({
    status: 'completed',
    finalAt: new Date(T0 + 60_000),
    transactionId: created.payout!.id,
  });
  expect((await store.get(created.reference))!.observed).toBe(1);
}

/** The version before a payout's life was followed: timestamptz/jsonb (PostgreSQL), the remarks table. */
function secondVersion(table: string, postgres: boolean): string {
  const index = table.replace('.', '_');
  const [text, time, json, flag, no] = postgres
    ? ['text', 'timestamptz', 'jsonb', 'boolean', 'false']
    : ['TEXT', 'INTEGER', 'TEXT', 'INTEGER', '0'];
  return `CREATE TABLE IF NOT EXISTS ${table} (
  reference ${text} PRIMARY KEY, state ${text} NOT NULL, currency ${text} NOT NULL, body ${json} NOT NULL,
  remark_key ${text}, created_at ${time} NOT NULL, updated_at ${time} NOT NULL, next_attempt_at ${time} NOT NULL,
  lease_until ${time}, owner ${text}, token ${postgres ? 'bigint' : 'INTEGER'} NOT NULL DEFAULT 0,
  sends integer NOT NULL DEFAULT 0, answered integer NOT NULL DEFAULT 0, lookups integer NOT NULL DEFAULT 0,
  accepted ${flag} NOT NULL DEFAULT ${no}, lookup_first ${flag} NOT NULL DEFAULT ${no}, first_sent_at ${time},
  last_sent_at ${time}, reason ${text}, result ${json}, attempts ${json} NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS ${table}_remarks (remark_key ${text} PRIMARY KEY, reference ${text} NOT NULL, created_at ${time} NOT NULL);
CREATE INDEX IF NOT EXISTS ${index}_due ON ${table} (next_attempt_at) WHERE state IN ('pending', 'sending', 'retry');
CREATE INDEX IF NOT EXISTS ${index}_state ON ${table} (state, created_at, reference);
CREATE INDEX IF NOT EXISTS ${index}_created ON ${table} (created_at, reference);`;
}

/** A sent row of the second version, in the driver's terms. */
function secondVersionRow(postgres: boolean): unknown[] {
  const time = (ms: number) => (postgres ? new Date(ms) : ms);
  const body = JSON.stringify({
    body: { amount: 30, currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'old-v2' },
  });
  const result = JSON.stringify({
    payout: {
      id: 'p-v2',
      fee_amount: 30,
      created_at: new Date(T0).toISOString(),
      destination_amount: 3000,
      amount: 3030,
      beneficiary: {},
    },
  });
  return [
    'old-v2',
    'created',
    'USD',
    body,
    time(T0),
    time(T0 + 1),
    time(T0 + 1),
    1,
    1,
    time(T0),
    time(T0),
    result,
  ];
}
const V2_COLUMNS =
  'reference, state, currency, body, created_at, updated_at, next_attempt_at, token, sends, first_sent_at, last_sent_at, result';

async function upgradesTheSecondVersion(store: PayoutOutboxStore<unknown>) {
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
  const [record] = await outbox.list({ limit: 10 });
  expect(record).toMatchObject({
    reference: 'old-v2',
    state: 'created',
    payout: { id: 'p-v2' },
    changes: [],
  });
  await followsAnUpgradedRow(outbox, store, 'old-v2');
  await keepsTombstones(outbox);
}

/**
 * An NGN payout deleted before tombstones were kept is known by the remarks table alone: its reference is refused,
 * never sent again. An upgraded row, archived, leaves its tombstone.
 */
async function keepsTombstones(outbox: ReturnType<typeof createPayoutOutbox>) {
  const gone = await rejection(
    outbox.enqueue({
      amount: '5000.00',
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      externalReference: 'gone-ngn',
      remark: 'Old invoice 9',
    }),
  );
  expect((gone as RequestValidationError).field).toBe('externalReference');
  expect((gone as RequestValidationError).message).toMatch(/payout gone-ngn.*it may have moved money/);
  expect(await outbox.get('gone-ngn')).toBeUndefined();
  await outbox.work({ until: 'drained', drainWithinMs: 0 });
  expect((await outbox.archive({ before: new Date(Date.now() + 60_000) })).archived).toEqual(['old-v2']);
  const again = await outbox.enqueue({
    amount: '30.00',
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference: 'old-v2',
  });
  expect(again).toMatchObject({ enqueued: false, record: { state: 'created', payout: { id: 'p-v2' } } });
  expect(again.record.archivedAt).toBeInstanceOf(Date);
}

/** The second version's remarks table held the remark of an NGN payout whose row has been deleted since. */
const GONE_REMARK = ['old invoice 9', 'gone-ngn'];

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

describe('sqlite: a table of the version before the payout’s life is upgraded in place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-upgrade-v2-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('gets the new columns; its sent rows are followed', async () => {
    const database = new DatabaseSync(join(dir, 'v2.db'));
    database.exec(secondVersion('payout_outbox', false));
    database
      .prepare(
        `INSERT INTO payout_outbox (${V2_COLUMNS}) VALUES (${V2_COLUMNS.split(',')
          .map(() => '?')
          .join(', ')})`,
      )
      .run(...(secondVersionRow(false) as never[]));
    database.prepare('INSERT INTO payout_outbox_remarks VALUES (?, ?, ?)').run(...GONE_REMARK, T0);
    await upgradesTheSecondVersion(sqliteOutboxStore({ database }));
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
    const { rows } = await pool.query(
      `SELECT column_name, data_type, column_default FROM information_schema.columns
       WHERE table_name = 'payout_outbox' AND column_name IN ('status', 'status_at', 'final_at', 'tracking_codes', 'changes', 'delivered')`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]))).toEqual({
      status: 'text',
      status_at: 'timestamp with time zone',
      final_at: 'timestamp with time zone',
      tracking_codes: 'jsonb',
      changes: 'jsonb',
      delivered: 'integer',
    });
  });

  it('a table of the version before the payout’s life gets the new columns in place; its sent rows are followed', async () => {
    await pool.query('CREATE SCHEMA IF NOT EXISTS v2');
    await pool.query(secondVersion('v2.payout_outbox', true));
    await pool.query(
      `INSERT INTO v2.payout_outbox (${V2_COLUMNS}) VALUES (${V2_COLUMNS.split(',')
        .map((_, i) => `$${i + 1}`)
        .join(', ')})`,
      secondVersionRow(true),
    );
    await pool.query('INSERT INTO v2.payout_outbox_remarks VALUES ($1, $2, $3)', [
      ...GONE_REMARK,
      new Date(T0),
    ]);
    const store = postgresOutboxStore({ client: pool, table: 'v2.payout_outbox' });
    await Promise.all([
      store.migrate(),
      postgresOutboxStore({ client: pool, table: 'v2.payout_outbox' }).migrate(),
    ]);
    await upgradesTheSecondVersion(store);
  });
});
