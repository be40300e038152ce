/**
 * The store contract on each store, real databases only: PostgreSQL (a throwaway server, through `pg`), SQLite
 * (`node:sqlite` on a file) and memory. Claims are exclusive, writes are fenced by the claim's token, and an
 * enqueue inside the caller's transaction commits or rolls back with it.
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
  memoryOutboxStore,
  type PayoutOutboxStore,
  postgresOutboxSchema,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const mock = createPaymentsMock();
const client = new PaymentsClient({
  apiKey: DEFAULT_API_KEY,
  baseUrl: mock.baseUrl,
  logLevel: 'off',
  fetch: mock.fetch,
});
const usd = (externalReference: string) => ({
  amount: '10',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});
const WRITE = {
  state: 'retry',
  lookups: 0,
  accepted: false,
  reason: null,
  result: null,
  attempts: '[]',
  delayMs: 0,
} as const;

/** The contract, on any store; `transaction` runs `body` inside the database's own transaction and rolls back. */
function contract(
  name: string,
  open: () => Promise<{
    store: PayoutOutboxStore<unknown>;
    rollback?: (body: (tx: unknown) => Promise<void>) => Promise<void>;
  }>,
) {
  describe(name, () => {
    let store: PayoutOutboxStore<unknown>;
    let rollback: ((body: (tx: unknown) => Promise<void>) => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ store, rollback } = await open());
      await store.migrate();
      await store.migrate();
    });

    it('gives a due payout to one claimant of many at once', async () => {
      const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
      const reference = await outbox.enqueue(usd(`${name}-one`));
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.claim(`owner-${i}`, 60_000, reference)),
      );
      expect(claims.flat()).toHaveLength(1);
      // Claiming without a reference takes only free rows: this one is leased.
      const others = await store.claim('late', 60_000, undefined, 100);
      expect(others.map((r) => r.reference)).not.toContain(reference);
    });

    it('fences writes by the token: an owner whose lease lapsed and was retaken changes nothing', async () => {
      const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
      const reference = await outbox.enqueue(usd(`${name}-fence`));
      const [first] = await store.claim('a', 1, reference);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const [second] = await store.claim('b', 60_000, reference);
      expect(second!.token).toBeGreaterThan(first!.token);
      expect(await store.mark(reference, first!.token, 60_000)).toBe(false);
      expect(await store.write(reference, first!.token, WRITE)).toBe(false);
      expect(await store.mark(reference, second!.token, 60_000)).toBe(true);
      expect(await store.write(reference, second!.token, { ...WRITE, state: 'created' })).toBe(true);
      expect(await store.get(reference)).toMatchObject({ state: 'created', sends: 1, lease_until: null });
    });

    it('does not hand out a payout before its next attempt time', async () => {
      const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
      const reference = await outbox.enqueue(usd(`${name}-later`));
      const [row] = await store.claim('a', 60_000, reference);
      expect(await store.write(reference, row!.token, { ...WRITE, delayMs: 60_000 })).toBe(true);
      expect(await store.claim('b', 60_000, reference)).toEqual([]);
      expect((await store.claim('b', 60_000, undefined, 1000)).map((r) => r.reference)).not.toContain(
        reference,
      );
    });

    it('lists by state, oldest first, in pages', async () => {
      const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
      for (let i = 0; i < 5; i++) await outbox.enqueue(usd(`${name}-list-${i}`));
      const pending = (await outbox.list({ state: 'pending', limit: 1000 })).map((r) => r.reference);
      const page1 = await outbox.list({ state: 'pending', limit: 3 });
      const page2 = await outbox.list({ state: 'pending', limit: 3, after: page1.at(-1)!.reference });
      expect([...page1, ...page2].map((r) => r.reference)).toEqual(pending.slice(0, 6));
      expect(pending).toEqual(expect.arrayContaining([`${name}-list-0`, `${name}-list-4`]));
    });

    it.runIf(name !== 'memory')('rolls an enqueue back with the transaction it was made in', async () => {
      const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
      await rollback!(async (tx) => {
        await outbox.enqueue(usd(`${name}-rolled-back`), { tx });
      });
      expect(await store.get(`${name}-rolled-back`)).toBeUndefined();
    });
  });
}

contract('memory', async () => ({ store: memoryOutboxStore() }));

const dir = mkdtempSync(join(tmpdir(), 'outbox-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
contract('sqlite', async () => {
  const database = new DatabaseSync(join(dir, 'outbox.db'));
  return {
    store: sqliteOutboxStore({ database }),
    rollback: async (body) => {
      database.exec('BEGIN IMMEDIATE');
      try {
        await body(database);
      } finally {
        database.exec('ROLLBACK');
      }
    },
  };
});

describe.runIf(postgresAvailable())('postgres', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 10 });
  });
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });
  contract('postgres', async () => ({
    store: postgresOutboxStore({ client: pool, table: 'public.payout_outbox' }),
    rollback: async (body) => {
      const tx = await pool.connect();
      try {
        await tx.query('BEGIN');
        await body(tx);
      } finally {
        await tx.query('ROLLBACK');
        tx.release();
      }
    },
  }));

  it('exports the table as SQL a migration tool can apply', async () => {
    await pool.query('CREATE SCHEMA IF NOT EXISTS billing');
    await pool.query(postgresOutboxSchema('billing.payouts_out'));
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM billing.payouts_out`);
    expect(rows[0]).toEqual({ n: 0 });
  });
});
