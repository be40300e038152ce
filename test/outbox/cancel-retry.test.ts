/**
 * The operator's verbs for payouts that never moved, on the real stores (a SQLite file and a throwaway
 * PostgreSQL): `cancel` is final and audited, and no worker sends a cancelled payout, the one that claimed it
 * before the cancel included; `retry` of a refused payout is refused again for the same cause (a 409 too) without
 * becoming `unknown`, while a payout whose POST was ever in doubt stays `unknown` on a 409 (no second payout).
 * `list` names `after` when it is given a reference instead of a record.
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
  type PayoutOutboxOptions,
  type PayoutOutboxStore,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

/** A store on a table of its own (each test drains its own payouts only). */
type Open = (table: string, options?: { lookupBeforeFirstSend?: boolean }) => PayoutOutboxStore<unknown>;

let run = 0;

async function setup(
  open: Open,
  options: Partial<PayoutOutboxOptions> & { lookupBeforeFirstSend?: boolean } = {},
) {
  const { lookupBeforeFirstSend, ...rest } = options;
  const mock = createPaymentsMock({ dedupeByReference: false });
  let posts = 0;
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') posts++;
      return mock.fetch(request);
    },
  });
  run += 1;
  const store = open(`verbs_${run}`, lookupBeforeFirstSend ? { lookupBeforeFirstSend } : {});
  await store.migrate();
  const outbox = createPayoutOutbox({
    client,
    store,
    timeout: 2000,
    visibilityWaits: [0],
    listingLagMs: 0,
    backoff: { baseMs: 0, maxMs: 0 },
    tracking: false,
    ...rest,
  });
  const ref = (name: string) => `${name}-${run}`;
  return { mock, store, outbox, posts: () => posts, ref };
}

const usd = (externalReference: string, amount = '25.00') => ({
  amount,
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});

/** More than the mock's USD wallet holds: refused `400 Insufficient USD balance`. */
const TOO_MUCH = '99999999.00';

function verbs(name: string, open: Open, lookupBeforeFirstSend: boolean) {
  describe(name, () => {
    it('cancel: a pending payout is cancelled, final and audited, and no worker sends it', async () => {
      const { outbox, posts, ref } = await setup(open);
      const { reference } = await outbox.enqueue(usd(ref('cancel-pending')));
      const cancelled = await outbox.cancel(reference, { by: 'ada', note: 'customer withdrew the request' });
      expect(cancelled).toMatchObject({ state: 'cancelled', sends: 0 });
      expect(cancelled.reason).toMatch(/cancelled by an operator.*\(ada: customer withdrew the request\)/);
      expect(cancelled.attempts.at(-1)).toMatchObject({
        kind: 'operator',
        by: 'ada',
        detail: 'cancel: customer withdrew the request',
        at: expect.any(String),
      });
      expect(cancelled.attention).toBeUndefined();
      const summary = await outbox.work({ until: 'drained', drainWithinMs: 0 });
      expect(summary.settled).toEqual({});
      expect(posts()).toBe(0);
      // Final: no verb re-opens it, and an enqueue of it again answers with its record.
      expect(((await rejection(outbox.retry(reference))) as Error).message).toMatch(/is cancelled/);
      expect(((await rejection(outbox.cancel(reference))) as Error).message).toMatch(/is cancelled/);
      expect(await outbox.enqueue(usd(reference))).toMatchObject({
        enqueued: false,
        record: { state: 'cancelled' },
      });
      expect((await outbox.count()).states.cancelled).toBeGreaterThanOrEqual(1);
    });

    it('cancel: refused and not_sent payouts are cancelled; one that may have moved is refused, naming its state', async () => {
      const { mock, outbox, ref } = await setup(open, { maxSends: 1 });
      const refused = await outbox.enqueue(usd(ref('cancel-refused'), TOO_MUCH));
      expect((await outbox.settle(refused.reference)).state).toBe('refused');
      expect((await outbox.cancel(refused.reference)).state).toBe('cancelled');

      mock.faults.next({ status: 503, match: 'POST /payouts' });
      const notSent = await outbox.enqueue(usd(ref('cancel-not-sent')));
      expect((await outbox.settle(notSent.reference)).state).toBe('not_sent');
      expect((await outbox.cancel(notSent.reference)).state).toBe('cancelled');

      const created = await outbox.enqueue(usd(ref('cancel-created')));
      expect((await outbox.settle(created.reference)).state).toBe('created');
      const error = (await rejection(outbox.cancel(created.reference))) as RequestValidationError;
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.field).toBe('reference');
      expect(error.message).toMatch(
        /is created: cancel applies to pending or not_sent or refused payouts only/,
      );
      expect((await rejection(outbox.cancel('no-such-payout'))) as Error).toBeInstanceOf(
        RequestValidationError,
      );
    });

    it('cancel: a worker that claimed the payout before the cancel never POSTs it', async () => {
      let cancel: Promise<unknown> | undefined;
      const { outbox, posts, ref } = await setup(open, {
        lookupBeforeFirstSend,
        hooks: {
          // The worker holds the lease; the operator cancels now, before its POST.
          afterClaim: async (reference) => {
            cancel = outbox.cancel(reference, { by: 'ops' }).catch((e) => e);
            await cancel;
          },
        },
      });
      const { reference } = await outbox.enqueue(usd(ref('cancel-race')));
      const record = await outbox.settle(reference);
      if (lookupBeforeFirstSend) {
        // Claimed, not yet marked: the cancel wins, and the worker's mark is fenced out.
        expect(await cancel).toMatchObject({ state: 'cancelled' });
        expect(record.state).toBe('cancelled');
        expect(posts()).toBe(0);
      } else {
        // The claim marked it (a POST is about to leave): the cancel is refused, and the payout is sent once.
        expect(((await cancel) as Error).message).toMatch(/is sending: cancel applies/);
        expect(record.state).toBe('created');
        expect(posts()).toBe(1);
      }
      const summary = await outbox.work({ until: 'drained', drainWithinMs: 0 });
      expect(summary.left).toBe(0);
      expect(posts()).toBe(lookupBeforeFirstSend ? 0 : 1);
    });

    it('cancel: a claim that is not marked yet is fenced out of its mark and its write', async () => {
      const { store, outbox, ref } = await setup(open);
      const { reference } = await outbox.enqueue(usd(ref('cancel-fence')));
      const [claimed] = await store.claim('worker-1', 60_000, reference, 1, false);
      expect(claimed).toMatchObject({ state: 'pending', owner: 'worker-1' });
      expect((await outbox.cancel(reference)).state).toBe('cancelled');
      expect(await store.mark(reference, claimed!.token, 60_000)).toBe(false);
      const row = (await store.get(reference))!;
      expect(row).toMatchObject({ state: 'cancelled', sends: 0, owner: null, lease_until: null });
    });

    it('retry: a refused payout refused again for the same cause is refused, not unknown', async () => {
      const { outbox, posts, ref } = await setup(open);
      const { reference } = await outbox.enqueue(usd(ref('retry-400'), TOO_MUCH));
      const first = await outbox.settle(reference);
      expect(first).toMatchObject({ state: 'refused', reason: expect.stringMatching(/Insufficient USD/) });
      expect((await outbox.retry(reference, { by: 'ops', note: 'topped up?' })).state).toBe('retry');
      await outbox.work({ until: 'drained', drainWithinMs: 0 });
      const again = (await outbox.get(reference))!;
      expect(again).toMatchObject({ state: 'refused', accepted: false });
      expect(again.attempts.filter((a) => a.kind === 'post').map((a) => a.status)).toEqual([400, 400]);
      expect(posts()).toBe(2);
    });

    it('retry: a payout only ever refused with a 409 is refused by the 409 again', async () => {
      const { mock, outbox, posts, ref } = await setup(open);
      mock.faults.next({ status: 409, times: 2, match: 'POST /payouts' });
      const { reference } = await outbox.enqueue(usd(ref('retry-409')));
      expect((await outbox.settle(reference)).state).toBe('refused');
      await outbox.retry(reference);
      await outbox.work({ until: 'drained', drainWithinMs: 0 });
      const again = (await outbox.get(reference))!;
      expect(again.state).toBe('refused');
      expect(again.attempts.filter((a) => a.kind === 'post').map((a) => a.status)).toEqual([409, 409]);
      expect(posts()).toBe(2);
    });

    it('retry: a 409 after a POST that was in doubt stays unknown (it may be that payout, listed late)', async () => {
      // A short lease: the re-opened payout's lookup must be read once a POST marked under the last lease could
      // have ended (a lease less its guard, plus a timeout: 1.3 s), and the drain waits for that, not a sleep.
      const { mock, outbox, posts, ref } = await setup(open, { maxSends: 1, timeout: 300, leaseMs: 1600 });
      // A 503 (a doubt, proven absent by the lookup), the one send spent: not_sent.
      mock.faults.next({ status: 503, match: 'POST /payouts' });
      const { reference } = await outbox.enqueue(usd(ref('retry-doubt')));
      expect((await outbox.settle(reference)).state).toBe('not_sent');
      await outbox.retry(reference);
      mock.faults.next({ status: 409, match: 'POST /payouts' });
      await outbox.work({ until: 'drained', drainWithinMs: 10_000, pollMs: 50 });
      const after = (await outbox.get(reference))!;
      expect(after.state).toBe('unknown');
      expect(after.attention).toMatch(/resolve/);
      expect(posts()).toBe(2);
      // Never sent again without a verdict.
      await outbox.work({ until: 'drained', drainWithinMs: 0 });
      expect(posts()).toBe(2);
    });

    it('list: after given a reference, not a record, is a typed error naming after', async () => {
      const { outbox } = await setup(open);
      for (const after of ['inv-42', 42, null, { reference: 'inv-42' }]) {
        const error = (await rejection(outbox.list({ after: after as never }))) as RequestValidationError;
        expect(error).toBeInstanceOf(RequestValidationError);
        expect(error.field).toBe('after');
      }
      const [first] = await outbox.list({ limit: 1 });
      if (first) await outbox.list({ after: first });
    });
  });
}

describe('sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-verbs-'));
  const database = new DatabaseSync(join(dir, 'outbox.db'));
  afterAll(() => {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  verbs('sqlite', (table) => sqliteOutboxStore({ database, table }), false);
});

describe.runIf(postgresAvailable())('postgres', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });
  const open: Open = (table, options) => postgresOutboxStore({ client: pool, table, ...options });
  verbs('postgres', open, false);
  verbs('postgres, every first POST looked up first', open, true);
});
