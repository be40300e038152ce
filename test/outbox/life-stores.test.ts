/**
 * The store contract of a sent payout's life, on each store (PostgreSQL, SQLite on a file, memory): observations
 * written over the row they were applied to and never lost to one another, rows found by id, reference or
 * remark, deliveries claimed by one owner and fenced by its token, one tracking lease at a time, and the
 * filters of the operator's and the tracker's lists.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, type Transaction } from '../../src/index.js';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutOutboxStore,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { applyTo } from '../../src/outbox/life.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const mock = createPaymentsMock({ dedupeByReference: false });
const client = new PaymentsClient({
  apiKey: DEFAULT_API_KEY,
  baseUrl: mock.baseUrl,
  logLevel: 'off',
  fetch: mock.fetch,
});
const FINALS = new Set(['completed', 'failed', 'refunded']);

/** The mock's row of a payout, at a status and second of its own. */
const rowAt = (reference: string, status: string, second: number): Transaction => ({
  ...(mock.transactions.get(reference) as Transaction),
  status,
  updated_at: `2099-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
});

function contract(name: string, open: () => Promise<PayoutOutboxStore<unknown>>) {
  describe(name, () => {
    let store: PayoutOutboxStore<unknown>;
    const outbox = () =>
      createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0], tracking: false });
    /** A payout sent through the outbox: its row, `created`. */
    const sent = async (reference: string, extra: object = {}) => {
      const box = outbox();
      await box.enqueue({
        amount: '10.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
        externalReference: reference,
        ...extra,
      });
      await box.settle(reference);
      return (await store.get(reference))!;
    };
    beforeAll(async () => {
      store = await open();
      await store.migrate();
    });

    it('never loses an observation to another written at once, whatever their order', async () => {
      const row = await sent(`${name}-race`);
      const rows = [1, 2, 3, 4, 5, 6].map((s) =>
        rowAt(
          `${name}-race`,
          ['processing', 'sent', 'sent', 'completed', 'completed', 'refunded'][s - 1]!,
          s,
        ),
      );
      await Promise.all([...rows].reverse().map((r) => applyTo(store, row, r, FINALS)));
      await Promise.all(rows.map((r) => applyTo(store, row, r, FINALS)));
      const after = (await store.get(`${name}-race`))!;
      expect(after).toMatchObject({ status: 'refunded', observed_at: Date.parse(rows[5]!.updated_at) });
      expect(after.final_at).not.toBeNull();
      // Each change numbered once, in the order written.
      expect(after.changes.map((c) => c.seq)).toEqual(after.changes.map((_, i) => i + 1));
      expect(after.observed).toBe(after.changes.length);
    });

    it('finds the row a listed transaction is: by id, by reference, by remark', async () => {
      const usd = await sent(`${name}-find`);
      const ngn = await sent(`${name}-find-ngn`, { currency: 'NGN', remark: `${name} Invoice 5` });
      const byId = await store.find({ transactionId: usd.result!.payout!.id });
      expect(byId.map((r) => r.reference)).toEqual([`${name}-find`]);
      const byRef = await store.find({ transactionId: 'nope', reference: `${name}-find` });
      expect(byRef.map((r) => r.reference)).toEqual([`${name}-find`]);
      const byRemark = await store.find({
        transactionId: 'nope',
        remarkKey: `${name} invoice 5`.toLowerCase(),
      });
      expect(byRemark.map((r) => r.reference)).toEqual([ngn.reference]);
    });

    it('gives changes to deliver to one owner of many, fenced by its token; a failure holds them off', async () => {
      const row = await sent(`${name}-deliver`);
      await applyTo(store, row, rowAt(`${name}-deliver`, 'completed', 9), FINALS);
      const claims = (
        await Promise.all(Array.from({ length: 6 }, (_, i) => store.claimDeliveries(`o-${i}`, 60_000, 10)))
      ).flat();
      const mine = claims.filter((r) => r.reference === `${name}-deliver`);
      expect(mine).toHaveLength(1);
      const [claimed] = mine;
      expect(
        await store.deliver(claimed!.reference, claimed!.token + 1, { delivered: 1, hookFailures: 0 }),
      ).toBe(false);
      expect(
        await store.deliver(claimed!.reference, claimed!.token, {
          delivered: 0,
          hookFailures: 1,
          retryInMs: 60_000,
          attempts: [{ at: 'x', kind: 'hook', detail: 'down' }],
        }),
      ).toBe(true);
      expect((await store.claimDeliveries('o-9', 60_000, 10)).map((r) => r.reference)).not.toContain(
        `${name}-deliver`,
      );
      const held = (await store.get(`${name}-deliver`))!;
      expect(held).toMatchObject({ delivered: 0, hook_failures: 1, owner: null });
      expect(held.attempts.at(-1)).toMatchObject({ kind: 'hook', detail: 'down' });
    });

    it('lets one owner hold the tracking lease at a time', async () => {
      const taken = await Promise.all(
        ['a', 'b', 'c', 'd'].map((owner) => store.lease(`${name}-turn`, owner, 60_000)),
      );
      expect(taken.filter(Boolean)).toHaveLength(1);
      const holder = ['a', 'b', 'c', 'd'][taken.indexOf(true)]!;
      expect(await store.lease(`${name}-turn`, 'z', 60_000)).toBe(false);
      // The holder renews its own; one that has lapsed (here: renewed to a second ago) is free for the next.
      expect(await store.lease(`${name}-turn`, holder, -1000)).toBe(true);
      expect(await store.lease(`${name}-turn`, 'z', 60_000)).toBe(true);
    });

    it('lists by the payout’s status, the rows to follow, and the rows sent in a period', async () => {
      const open = await sent(`${name}-follow-open`);
      const done = await sent(`${name}-follow-done`);
      await applyTo(store, open, rowAt(`${name}-follow-open`, 'processing', 1), FINALS);
      await applyTo(store, done, rowAt(`${name}-follow-done`, 'failed', 1), FINALS);
      const now = await store.now();
      const refs = (rows: { reference: string }[]) =>
        rows.map((r) => r.reference).filter((r) => r.startsWith(`${name}-follow`));
      expect(refs(await store.list({ limit: 100, status: 'failed' }))).toEqual([`${name}-follow-done`]);
      const following = { sentSince: now - 60_000, finalSince: Date.parse('2099-01-02T00:00:00.000Z') };
      expect(refs(await store.list({ limit: 100, following }))).toEqual([`${name}-follow-open`]);
      const later = { sentSince: now - 60_000, finalSince: Date.parse('2098-12-31T00:00:00.000Z') };
      expect(refs(await store.list({ limit: 100, following: later }))).toHaveLength(2);
      expect(refs(await store.list({ limit: 100, sentBetween: [now + 60_000, now + 120_000] }))).toEqual([]);
      // A period that holds the POST, and none that ends before it or starts after it.
      const at = open.last_sent_at!;
      expect(refs(await store.list({ limit: 100, sentBetween: [at, at] }))).toContain(`${name}-follow-open`);
      expect(refs(await store.list({ limit: 100, sentBetween: [at - 2, at - 1] }))).not.toContain(
        `${name}-follow-open`,
      );
    });
  });
}

contract('memory', async () => memoryOutboxStore());

const dir = mkdtempSync(join(tmpdir(), 'outbox-life-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
contract('sqlite', async () => sqliteOutboxStore({ database: new DatabaseSync(join(dir, 'life.db')) }));

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
  contract('postgres', async () => postgresOutboxStore({ client: pool }));
});
