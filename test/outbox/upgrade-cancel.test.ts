/**
 * The upgrade to the version with `cancel`: a table whose state check predates `cancelled` and that has no
 * `doubted` column (the version before) is upgraded in place by `migrate()`, twice, on SQLite and PostgreSQL. Every
 * row reads back the same; the rows that may have been in doubt are marked so (a 409 after their re-open stays
 * `unknown`), a payout recorded and never sent is not; a payout can be cancelled; the check still refuses a state
 * that does not exist.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import {
  createPayoutOutbox,
  type PayoutOutboxStore,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { COLUMNS as TYPES } from '../../src/outbox/sql-columns.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

/** The table of the version before: today's, less `doubted`, its state check without `cancelled`. */
function previousVersion(table: string, dialect: 0 | 1): string {
  const columns = Object.entries(TYPES)
    .filter(([name]) => name !== 'doubted')
    .map(([name, types]) => `${name} ${types[dialect].replace(", 'cancelled'", '')}`);
  return `CREATE TABLE ${table} (${columns.join(', ')})`;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const COLUMNS = 'reference, state, currency, body, created_at, updated_at, next_attempt_at, sends, answered';
/** A row per state that matters here: never sent, refused once, sent and in doubt, not sent after doubts. */
const ROWS: Array<[string, string, number, number]> = [
  ['up-pending', 'pending', 0, 0],
  ['up-refused', 'refused', 1, 1],
  ['up-sending', 'sending', 1, 0],
  ['up-not-sent', 'not_sent', 2, 2],
];
const body = (reference: string) =>
  JSON.stringify({
    body: { amount: '10.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference: reference },
  });

async function checkUpgraded(store: PayoutOutboxStore<unknown>, insertBogus: () => Promise<unknown>) {
  await store.migrate();
  await store.migrate();
  const doubted = Object.fromEntries(
    await Promise.all(ROWS.map(async ([reference]) => [reference, (await store.get(reference))!.doubted])),
  );
  expect(doubted).toEqual({
    'up-pending': false,
    'up-refused': true,
    'up-sending': true,
    'up-not-sent': true,
  });
  const mock = createPaymentsMock();
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel: 'off',
  });
  const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0], tracking: false });
  const records = await outbox.list({ limit: 10 });
  expect(records.map((r) => [r.reference, r.state, r.sends])).toEqual(
    ROWS.map(([reference, state, sends]) => [reference, state, sends]).sort(),
  );
  expect((await outbox.cancel('up-pending', { by: 'ops' })).state).toBe('cancelled');
  expect((await outbox.cancel('up-refused', { by: 'ops' })).state).toBe('cancelled');
  expect(String(await insertBogus().catch((e) => e))).toMatch(/constraint/i);
}

describe('sqlite: the table before cancel is upgraded in place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-upgrade-cancel-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('keeps every row, marks the doubted ones, and takes cancelled', async () => {
    const database = new DatabaseSync(join(dir, 'outbox.db'));
    try {
      database.exec(previousVersion('payout_outbox', 1));
      for (const [reference, state, sends, answered] of ROWS) {
        database
          .prepare(`INSERT INTO payout_outbox (${COLUMNS}) VALUES (?, ?, 'USD', ?, ?, ?, ?, ?, ?)`)
          .run(reference, state, body(reference), T0, T0, T0, sends, answered);
      }
      const store = sqliteOutboxStore({ database });
      await checkUpgraded(store, async () =>
        database
          .prepare(`INSERT INTO payout_outbox (${COLUMNS}) VALUES ('x', 'done', 'USD', '{}', 0, 0, 0, 0, 0)`)
          .run(),
      );
    } finally {
      database.close();
    }
  });
});

describe.runIf(postgresAvailable())('postgres: the table before cancel is upgraded in place', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 2 });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });

  it('keeps every row, marks the doubted ones, and takes cancelled', async () => {
    await pool.query(previousVersion('payout_outbox', 0));
    for (const [reference, state, sends, answered] of ROWS) {
      await pool.query(
        `INSERT INTO payout_outbox (${COLUMNS}) VALUES ($1, $2, 'USD', $3, $4, $4, $4, $5, $6)`,
        [reference, state, body(reference), new Date(T0), sends, answered],
      );
    }
    const store = postgresOutboxStore({ client: pool });
    await checkUpgraded(store, () =>
      pool.query(
        `INSERT INTO payout_outbox (${COLUMNS}) VALUES ('x', 'done', 'USD', '{}', now(), now(), now(), 0, 0)`,
      ),
    );
  });
});
