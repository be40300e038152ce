/**
 * Tombstones (issue 37, case 5): a payout the outbox recorded stays known after its row is archived or deleted.
 * Enqueued again under its reference, it is answered from its tombstone and never POSTed a second time; its
 * reference with other details, or its remark on a new payout, is refused. On each store (memory, SQLite on a
 * file, a real PostgreSQL), through the public entry, against the mock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { PaymentsClient, RequestValidationError, type Transaction } from 'payments-service-sdk';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutOutboxStore,
  postgresOutboxStore,
  sqliteOutboxStore,
} from 'payments-service-sdk/outbox';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

interface Opened {
  store: PayoutOutboxStore<unknown>;
  /** Deletes a row in SQL, as an operator (or the docs' archive step done by hand) would. */
  remove?: (reference: string) => Promise<void>;
  /** Makes every tombstone write fail (a full disk, a lost connection); resolves to the undo. */
  breakTombstones?: () => Promise<() => Promise<void>>;
}

/** An outbox on `store` over a fresh mock that never dedupes, and the POSTs made per reference. */
function rig(store: PayoutOutboxStore<unknown>) {
  const mock = createPaymentsMock({ dedupeByReference: false });
  const bodies: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') bodies.push(await request.clone().text());
      return mock.fetch(request);
    },
  });
  const outbox = createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0], tracking: false });
  return { outbox, posts: (reference: string) => bodies.filter((b) => b.includes(reference)).length };
}

/** A payout whose remark holds its reference, so each POST can be counted by it. */
const payout = (reference: string, currency: 'NGN' | 'USD', extra: object = {}) => ({
  amount: '5000.00' as const,
  currency,
  beneficiary: BENEFICIARY,
  externalReference: reference,
  remark: `Invoice ${reference}`,
  ...extra,
});

const soon = () => new Date(Date.now() + 60_000);

function contract(name: string, open: () => Promise<Opened>) {
  describe(name, () => {
    let opened: Opened;
    let store: PayoutOutboxStore<unknown>;
    beforeAll(async () => {
      opened = await open();
      store = opened.store;
      await store.migrate();
      await store.migrate();
    });

    for (const currency of ['NGN', 'USD'] as const) {
      it(`a sent ${currency} payout, archived, enqueued again is answered from its tombstone, never POSTed again`, async () => {
        const { outbox, posts } = rig(store);
        const reference = `${name}-${currency}-archived`;
        const body = payout(reference, currency);
        await outbox.enqueue(body);
        const sent = await outbox.settle(reference);
        expect(sent).toMatchObject({ state: 'created', sends: 1 });
        expect(posts(reference)).toBe(1);

        const { archived } = await outbox.archive({ before: soon() });
        expect(archived).toContain(reference);
        expect((await outbox.list({ limit: 10_000 })).map((r) => r.reference)).not.toContain(reference);

        const again = await outbox.enqueue(body);
        expect(again).toMatchObject({
          reference,
          enqueued: false,
          record: { reference, state: 'created', sends: 1, payout: { id: sent.payout!.id } },
        });
        expect(again.record.archivedAt).toBeInstanceOf(Date);
        expect(await outbox.get(reference)).toMatchObject({ state: 'created', archivedAt: expect.any(Date) });
        expect(await outbox.settle(reference)).toMatchObject({ state: 'created' });
        await outbox.work({ until: 'drained', drainWithinMs: 0 });
        expect(posts(reference)).toBe(1);
        expect((await outbox.list({ limit: 10_000 })).map((r) => r.reference)).not.toContain(reference);
      });
    }

    it("an archived payout's reference with other details is refused, naming the first payout", async () => {
      const { outbox, posts } = rig(store);
      const reference = `${name}-reused`;
      await outbox.enqueue(payout(reference, 'NGN'));
      const sent = await outbox.settle(reference);
      await outbox.archive({ before: soon() });

      const other = await rejection(outbox.enqueue(payout(reference, 'NGN', { amount: '7000.00' })));
      expect(other).toBeInstanceOf(RequestValidationError);
      expect((other as RequestValidationError).field).toBe('externalReference');
      const message = (other as RequestValidationError).message;
      expect(message).toContain(reference);
      expect(message).toContain(sent.payout!.id);
      expect(message).toMatch(/archived/);
      expect(message).toMatch(/differs in amount/);

      // Another remark under the reference: refused too, and the new remark is not kept taken by the refusal.
      const remark = `${name} fresh remark`;
      const renamed = await rejection(outbox.enqueue(payout(reference, 'NGN', { remark })));
      expect((renamed as RequestValidationError).field).toBe('externalReference');
      expect((renamed as RequestValidationError).message).toMatch(/differs in remark/);
      const fresh = await outbox.enqueue(payout(`${name}-fresh`, 'NGN', { remark }));
      expect(fresh.enqueued).toBe(true);
      expect(posts(reference)).toBe(1);
    });

    it("a new payout with an archived payout's remark is refused as a live one's is", async () => {
      const { outbox } = rig(store);
      const reference = `${name}-remark-holder`;
      await outbox.enqueue(payout(reference, 'NGN'));
      await outbox.settle(reference);
      await outbox.archive({ before: soon() });
      const twin = await rejection(
        outbox.enqueue(payout(`${name}-twin`, 'NGN', { remark: `INVOICE   ${reference.toUpperCase()}` })),
      );
      expect((twin as RequestValidationError).field).toBe('remark');
      expect((twin as RequestValidationError).message).toMatch(new RegExp(`remark of payout ${reference}`));
      expect(await outbox.get(`${name}-twin`)).toBeUndefined();
    });

    it('archives final payouts only: open ones, newer ones, and sent ones still moving or with hooks to run stay', async () => {
      const { outbox } = rig(store);
      const pending = `${name}-keep-pending`;
      const moving = `${name}-keep-moving`;
      await outbox.enqueue(payout(moving, 'USD'));
      const sent = await outbox.settle(moving);
      const transaction = (status: string, minutes: number): Transaction => ({
        id: sent.payout!.id,
        transaction_type: 'withdrawal',
        status,
        created_at: new Date().toISOString(),
        updated_at: new Date(Date.now() + minutes * 60_000).toISOString(),
      });
      // Updated after `before`: kept.
      expect((await outbox.archive({ before: new Date(Date.now() - 60_000) })).archived).not.toContain(
        moving,
      );
      // Observed processing, its change not yet delivered; then delivered, still processing: kept.
      await outbox.observe(transaction('processing', 1));
      expect((await outbox.archive({ before: soon() })).archived).not.toContain(moving);
      await outbox.work({ until: 'drained', drainWithinMs: 0 });
      expect((await outbox.archive({ before: soon() })).archived).not.toContain(moving);
      // Completed and delivered: archived. A payout not yet sent never is.
      await outbox.observe(transaction('completed', 2));
      await outbox.work({ until: 'drained', drainWithinMs: 0 });
      await outbox.enqueue(payout(pending, 'USD'));
      const { archived } = await outbox.archive({ before: soon() });
      expect(archived).toContain(moving);
      expect(archived).not.toContain(pending);
      expect(await outbox.get(moving)).toMatchObject({ status: 'completed', archivedAt: expect.any(Date) });
      expect((await outbox.get(pending))?.archivedAt).toBeUndefined();
    });

    it('archives at most `limit` payouts a call', async () => {
      const { outbox } = rig(store);
      for (let i = 0; i < 3; i++) {
        await outbox.enqueue(payout(`${name}-batch-${i}`, 'USD'));
        await outbox.settle(`${name}-batch-${i}`);
      }
      const first = await outbox.archive({ before: soon(), limit: 2 });
      expect(first.archived).toHaveLength(2);
      const rest = await outbox.archive({ before: soon(), limit: 2 });
      expect([...first.archived, ...rest.archived]).toEqual(
        expect.arrayContaining([0, 1, 2].map((i) => `${name}-batch-${i}`)),
      );
      const bad = await rejection(outbox.archive({ before: new Date(Number.NaN) }));
      expect((bad as RequestValidationError).field).toBe('before');
    });

    it.runIf(name !== 'memory')(
      "a row deleted in SQL (the operator's own archive step) leaves its tombstone: enqueued again, it is not sent",
      async () => {
        const { outbox, posts } = rig(store);
        const reference = `${name}-deleted`;
        const body = payout(reference, 'NGN');
        await outbox.enqueue(body);
        await outbox.settle(reference);
        await opened.remove!(reference);
        const again = await outbox.enqueue(body);
        expect(again).toMatchObject({ enqueued: false, record: { state: 'created' } });
        expect(again.record.archivedAt).toBeInstanceOf(Date);
        await outbox.work({ until: 'drained', drainWithinMs: 0 });
        expect(posts(reference)).toBe(1);

        // Deleted before it was ever sent: still known, and still not sent by enqueueing it again.
        const unsent = `${name}-deleted-unsent`;
        await outbox.enqueue(payout(unsent, 'USD'));
        await opened.remove!(unsent);
        expect(await outbox.enqueue(payout(unsent, 'USD'))).toMatchObject({
          enqueued: false,
          record: { state: 'pending', archivedAt: expect.any(Date) },
        });
        await outbox.work({ until: 'drained', drainWithinMs: 0 });
        expect(posts(unsent)).toBe(0);
      },
    );

    it.runIf(name !== 'memory')(
      'an archive whose tombstone cannot be written deletes nothing: archive and tombstone are one transaction',
      async () => {
        const { outbox, posts } = rig(store);
        const reference = `${name}-crash`;
        const body = payout(reference, 'NGN');
        await outbox.enqueue(body);
        await outbox.settle(reference);
        const mend = await opened.breakTombstones!();
        try {
          await rejection(outbox.archive({ before: soon() }));
          await rejection(opened.remove!(reference));
        } finally {
          await mend();
        }
        const live = await outbox.get(reference);
        expect(live).toMatchObject({ state: 'created' });
        expect(live!.archivedAt).toBeUndefined();
        expect(await outbox.enqueue(body)).toMatchObject({ enqueued: false, record: { state: 'created' } });
        expect((await outbox.archive({ before: soon() })).archived).toContain(reference);
        expect((await outbox.enqueue(body)).record.archivedAt).toBeInstanceOf(Date);
        expect(posts(reference)).toBe(1);
      },
    );
  });
}

contract('memory', async () => ({ store: memoryOutboxStore() }));

const dir = mkdtempSync(join(tmpdir(), 'outbox-tombstones-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
contract('sqlite', async () => {
  const database = new DatabaseSync(join(dir, 'outbox.db'));
  return {
    store: sqliteOutboxStore({ database }),
    remove: async (reference) => {
      database.prepare('DELETE FROM payout_outbox WHERE reference = ?').run(reference);
    },
    breakTombstones: async () => {
      database.exec(`CREATE TRIGGER disk_full BEFORE INSERT ON payout_outbox_tombstones
        BEGIN SELECT RAISE(ABORT, 'disk full'); END;
        CREATE TRIGGER disk_full_update BEFORE UPDATE ON payout_outbox_tombstones
        BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
      return async () => database.exec('DROP TRIGGER disk_full; DROP TRIGGER disk_full_update;');
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
    remove: async (reference) => {
      await pool.query('DELETE FROM public.payout_outbox WHERE reference = $1', [reference]);
    },
    breakTombstones: async () => {
      await pool.query(
        'ALTER TABLE public.payout_outbox_tombstones ADD CONSTRAINT disk_full CHECK (archived_at IS NULL) NOT VALID',
      );
      return async () => {
        await pool.query('ALTER TABLE public.payout_outbox_tombstones DROP CONSTRAINT disk_full');
      };
    },
  }));

  it('an enqueue while a delete of the same payout is uncommitted does not record it a second time', async () => {
    const store = postgresOutboxStore({ client: pool, table: 'racing' });
    await store.migrate();
    const { outbox, posts } = rig(store);
    const reference = 'pg-racing';
    const body = payout(reference, 'NGN');
    await outbox.enqueue(body);
    await outbox.settle(reference);
    const deleter = await pool.connect();
    try {
      await deleter.query('BEGIN');
      await deleter.query('DELETE FROM racing WHERE reference = $1', [reference]);
      // The enqueue either answers at once (from the row the delete has not yet committed) or waits on a lock:
      // the delete commits as soon as one of the two is seen.
      let settled = false;
      const enqueued = outbox.enqueue(body).finally(() => {
        settled = true;
      });
      const waiting = async () => {
        while (!settled) {
          const { rows } = await pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          if (rows.length > 0) return;
        }
      };
      await Promise.race([enqueued.catch(() => {}), waiting()]);
      await deleter.query('COMMIT');
      const answer = await enqueued;
      expect(answer.enqueued).toBe(false);
    } finally {
      deleter.release();
    }
    expect(await outbox.get(reference)).toMatchObject({ archivedAt: expect.any(Date) });
    expect(await store.get(reference)).toBeUndefined();
    await outbox.work({ until: 'drained', drainWithinMs: 0 });
    expect(posts(reference)).toBe(1);
  });
});
