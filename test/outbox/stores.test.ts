/**
 * The store contract on each store, real databases only: PostgreSQL (a throwaway server, through `pg`), SQLite
 * (`node:sqlite` on a file) and memory. Claims are exclusive, writes are fenced by the claim's token, an enqueue
 * inside the caller's transaction commits or rolls back with it, the operator's list survives deletes, and a
 * remark stays taken after its row is gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type OutboxWrite,
  type PayoutOutboxStore,
  postgresOutboxSchema,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const mock = createPaymentsMock();
const client = new PaymentsClient({
  apiKey: DEFAULT_API_KEY,
  baseUrl: mock.baseUrl,
  logLevel: 'off',
  fetch: mock.fetch,
});
const usd = (externalReference: string) => ({
  amount: '10.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});
const WRITE: OutboxWrite = {
  state: 'retry',
  sends: 0,
  answered: 0,
  lookups: 0,
  accepted: false,
  lookup_first: false,
  clock_doubt_ms: 0,
  reason: null,
  result: null,
  attempts: [],
  delayMs: 0,
};

interface Opened {
  store: PayoutOutboxStore<unknown>;
  /** Runs `body` inside the database's own transaction, then rolls it back. */
  rollback?: (body: (tx: unknown) => Promise<void>) => Promise<void>;
  /** Deletes rows as an operator's SQL would. */
  remove?: (reference: string) => Promise<void>;
}

/** The contract, on any store. */
function contract(name: string, open: () => Promise<Opened>) {
  describe(name, () => {
    let opened: Opened;
    let store: PayoutOutboxStore<unknown>;
    const outbox = () => createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
    beforeAll(async () => {
      opened = await open();
      store = opened.store;
      await store.migrate();
      await store.migrate();
    });

    it('gives a due payout to one claimant of many at once', async () => {
      const { reference } = await outbox().enqueue(usd(`${name}-one`));
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.claim(`owner-${i}`, 60_000, reference, 1, i % 2 === 0)),
      );
      expect(claims.flat()).toHaveLength(1);
      // Marked once at most, by the one claim that took it.
      expect((await store.get(reference))!.sends).toBe(claims.flat()[0]!.marked ? 1 : 0);
      // Claiming without a reference takes only free rows: this one is leased.
      const others = await store.claim('late', 60_000, undefined, 100);
      expect(others.map((r) => r.reference)).not.toContain(reference);
    });

    it('fences writes by the token: an owner whose lease lapsed and was retaken changes nothing', async () => {
      const { reference } = await outbox().enqueue(usd(`${name}-fence`));
      const [first] = await store.claim('a', 1, reference);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const [second] = await store.claim('b', 60_000, reference);
      expect(second!.token).toBeGreaterThan(first!.token);
      expect(await store.mark(reference, first!.token, 60_000)).toBe(false);
      expect(await store.write(reference, first!.token, WRITE)).toBe(false);
      expect(await store.mark(reference, second!.token, 60_000)).toBe(true);
      expect(await store.write(reference, second!.token, { ...WRITE, state: 'created', sends: 1 })).toBe(
        true,
      );
      const row = await store.get(reference);
      expect(row).toMatchObject({ state: 'created', sends: 1, lease_until: null });
      expect(row!.first_sent_at).toBeTypeOf('number');
      expect(row!.last_sent_at).toBeGreaterThanOrEqual(row!.first_sent_at!);
    });

    it('marks a fresh payout in its claim (markFresh), and only a fresh one', async () => {
      const box = outbox();
      const { reference: fresh } = await box.enqueue(usd(`${name}-fresh`));
      const [row] = await store.claim('a', 60_000, fresh, 1, true);
      expect(row).toMatchObject({ marked: true, state: 'sending', sends: 1, owner: 'a' });
      expect(row!.first_sent_at).toBeTypeOf('number');
      expect(row!.last_sent_at).toBe(row!.first_sent_at);
      expect(await store.get(fresh)).toMatchObject({ state: 'sending', sends: 1 });
      // Retaken after its lease lapsed, it was sent (maybe): not fresh, not marked again.
      expect(await store.write(fresh, row!.token, { ...WRITE, state: 'sending', sends: 1 })).toBe(true);
      const [again] = await store.claim('b', 60_000, fresh, 1, true);
      expect(again).toMatchObject({ state: 'sending', sends: 1 });
      expect(again!.marked).toBeUndefined();
      // Without markFresh, a fresh row is only claimed.
      const { reference: plain } = await box.enqueue(usd(`${name}-plain`));
      const [claimed] = await store.claim('c', 60_000, plain);
      expect(claimed).toMatchObject({ state: 'pending', sends: 0 });
      expect(claimed!.marked).toBeUndefined();
      // In a batch: the fresh rows marked, a re-opened one (lookup_first) not.
      const { reference: reopened } = await box.enqueue(usd(`${name}-reopened`));
      const [r] = await store.claim('d', 60_000, reopened);
      await store.write(reopened, r!.token, { ...WRITE, state: 'not_sent', sends: 1, answered: 1 });
      await store.reopen(reopened, {
        from: ['not_sent'],
        state: 'retry',
        reason: 'test',
        reopen: true,
        clearAccepted: false,
        attempt: { at: new Date().toISOString(), kind: 'operator' },
      });
      const { reference: second } = await box.enqueue(usd(`${name}-fresh-2`));
      const batch = await store.claim('e', 60_000, undefined, 1000, true);
      const byRef = new Map(batch.map((b) => [b.reference, b]));
      expect(byRef.get(second)).toMatchObject({ marked: true, sends: 1, state: 'sending' });
      expect(byRef.get(reopened)).toMatchObject({ state: 'retry', sends: 0, lookup_first: true });
      expect(byRef.get(reopened)!.marked).toBeUndefined();
      for (const b of batch)
        await store.write(b.reference, b.token, { ...WRITE, state: 'created', sends: 1 });
    });

    it('does not hand out a payout before its next attempt time', async () => {
      const { reference } = await outbox().enqueue(usd(`${name}-later`));
      const [row] = await store.claim('a', 60_000, reference);
      expect(await store.write(reference, row!.token, { ...WRITE, delayMs: 60_000 })).toBe(true);
      expect(await store.claim('b', 60_000, reference)).toEqual([]);
      expect((await store.claim('b', 60_000, undefined, 1000)).map((r) => r.reference)).not.toContain(
        reference,
      );
    });

    it('lists by state, oldest first, in pages that go on when the cursor row is deleted', async () => {
      const box = outbox();
      for (let i = 0; i < 5; i++) await box.enqueue(usd(`${name}-list-${i}`));
      const pending = (await box.list({ state: 'pending', limit: 1000 })).map((r) => r.reference);
      const page1 = await box.list({ state: 'pending', limit: 3 });
      const page2 = await box.list({ state: 'pending', limit: 3, after: page1.at(-1)! });
      expect([...page1, ...page2].map((r) => r.reference)).toEqual(pending.slice(0, 6));
      if (opened.remove) {
        // The operator deletes the row the cursor names: the next page is still the rows after it.
        await opened.remove(page1.at(-1)!.reference);
        const after = await box.list({ state: 'pending', limit: 3, after: page1.at(-1)! });
        expect(after.map((r) => r.reference)).toEqual(page2.map((r) => r.reference));
      }
    });

    it('counts payouts per state, and lists the due ones', async () => {
      const box = outbox();
      const { reference } = await box.enqueue(usd(`${name}-count`));
      const { states, oldestOpen } = await box.count();
      expect(states.pending).toBeGreaterThanOrEqual(1);
      expect(Object.keys(states).sort()).toEqual(
        [
          'cancelled',
          'created',
          'not_sent',
          'pending',
          'recovered',
          'refused',
          'retry',
          'sending',
          'unknown',
        ].sort(),
      );
      expect(oldestOpen).toBeInstanceOf(Date);
      expect((await box.list({ due: true, limit: 1000 })).map((r) => r.reference)).toContain(reference);
    });

    it('keeps a remark taken after its row is deleted, compared ignoring case and spacing', async () => {
      const box = outbox();
      const ngn = (remark: string, amount: string) => ({
        amount,
        currency: 'NGN',
        beneficiary: BENEFICIARY,
        remark,
      });
      const first = await box.enqueue(ngn(`${name} Invoice 42`, '5000.00'));
      expect(first.record.matchRemark).toBe(`${name} Invoice 42`);
      const twin = await rejection(box.enqueue(ngn(`${name}  invoice 42`, '7000.00')));
      expect((twin as RequestValidationError).field).toBe('remark');
      if (opened.remove) {
        await opened.remove(first.reference);
        const again = await rejection(box.enqueue(ngn(`${name} Invoice 42`, '7000.00')));
        expect((again as RequestValidationError).message).toMatch(
          new RegExp(`remark of payout ${first.reference}`),
        );
      }
    });

    it('re-enqueueing the same payout spelled differently returns its record; a different one names the fields', async () => {
      const box = outbox();
      const body = { ...usd(`${name}-same`), amount: '150000.00', remark: 'Rent' };
      const first = await box.enqueue(body);
      expect(first).toMatchObject({ enqueued: true, record: { state: 'pending' } });
      // As a job rebuilds it from a table: NUMERIC read back as text, fields in column order, currency in lower case.
      const rebuilt = {
        remark: 'Rent',
        externalReference: body.externalReference,
        currency: 'usd',
        beneficiary: { ...BENEFICIARY },
        amount: '150000.00',
      };
      expect(await box.enqueue(rebuilt)).toMatchObject({ enqueued: false, reference: first.reference });
      const other = (await rejection(
        box.enqueue({ ...body, amount: '150000.01' }),
      )) as RequestValidationError;
      expect(other.field).toBe('externalReference');
      expect(other.message).toMatch(
        /differs in amount: if this is the same payout, nothing is needed; if it is a different payout, give it its own reference/,
      );
      expect(other.message).not.toMatch(/use a new reference/);
    });

    it.runIf(name !== 'memory')('rolls an enqueue back with the transaction it was made in', async () => {
      await opened.rollback!(async (tx) => {
        await outbox().enqueue(usd(`${name}-rolled-back`), { tx });
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
    remove: async (reference) => {
      database.prepare('DELETE FROM payout_outbox WHERE reference = ?').run(reference);
    },
    // A handle of the request's own, as a merchant opens one per request: the insert runs on it.
    rollback: async (body) => {
      const request = new DatabaseSync(join(dir, 'outbox.db'));
      request.exec('PRAGMA busy_timeout = 5000');
      request.exec('BEGIN IMMEDIATE');
      try {
        await body(request);
      } finally {
        request.exec('ROLLBACK');
        request.close();
      }
    },
  };
});

describe('sqlite: tx is honoured or refused', () => {
  it('an enqueue on a handle outside any transaction is refused before anything is written', async () => {
    const file = join(dir, 'tx.db');
    const store = sqliteOutboxStore({ database: new DatabaseSync(file) });
    await store.migrate();
    const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
    const error = await rejection(outbox.enqueue(usd('tx-autocommit'), { tx: new DatabaseSync(file) }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('tx');
    expect(await store.get('tx-autocommit')).toBeUndefined();
  });
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
    remove: async (reference) => {
      await pool.query('DELETE FROM public.payout_outbox WHERE reference = $1', [reference]);
    },
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

  it('refuses to start where a crash can lose an acknowledged commit (synchronous_commit off)', async () => {
    // Off for this pool's sessions only: a cluster-wide ALTER SYSTEM takes effect (and is undone) whenever each
    // backend gets to its reload, so other tests on this cluster could see it.
    const fresh = new pg.Pool({ connectionString: server.url, max: 1, options: '-c synchronous_commit=off' });
    try {
      const error = await rejection(postgresOutboxStore({ client: fresh, table: 'sync_check' }).migrate());
      expect((error as RequestValidationError).message).toMatch(
        /synchronous_commit is off, so a crash can lose a commit already acknowledged/,
      );
      await postgresOutboxStore({
        client: fresh,
        table: 'sync_check',
        lookupBeforeFirstSend: true,
      }).migrate();
    } finally {
      await fresh.end();
    }
  });

  it('refuses a tx that is not inside a transaction (autocommit), before anything is written', async () => {
    const store = postgresOutboxStore({ client: pool });
    await store.migrate();
    const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
    const connection = await pool.connect();
    try {
      const error = await rejection(outbox.enqueue(usd('pg-autocommit'), { tx: connection }));
      expect((error as RequestValidationError).field).toBe('tx');
    } finally {
      connection.release();
    }
    expect(await store.get('pg-autocommit')).toBeUndefined();
  });

  it('exports the tables as SQL a migration tool can apply, typed as a DBA would', async () => {
    await pool.query('CREATE SCHEMA IF NOT EXISTS billing');
    await pool.query(postgresOutboxSchema('billing.payouts_out'));
    await pool.query(postgresOutboxSchema('billing.payouts_out'));
    const { rows } = await pool.query(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_schema = 'billing' AND table_name = 'payouts_out' ORDER BY column_name`,
    );
    const types = Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]));
    expect(types).toMatchObject({
      created_at: 'timestamp with time zone',
      next_attempt_at: 'timestamp with time zone',
      body: 'jsonb',
      attempts: 'jsonb',
      result: 'jsonb',
    });
    const bad = await pool
      .query(`INSERT INTO billing.payouts_out (reference, state, currency, body, created_at, updated_at, next_attempt_at)
              VALUES ('x', 'done', 'USD', '{}', now(), now(), now())`)
      .catch((e) => e);
    expect(String(bad)).toMatch(/check constraint/);
  });
});
