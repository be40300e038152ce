/**
 * The PostgreSQL store sends the answers issued together as one statement: each still fenced by its own token,
 * none resolved before the statement that holds it has committed, a failed statement rejecting its batch whole.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import {
  createPayoutOutbox,
  type OutboxWrite,
  type PostgresQueryable,
  postgresOutboxStore,
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
const WRITE: OutboxWrite = {
  state: 'created',
  sends: 1,
  answered: 1,
  lookups: 0,
  accepted: true,
  lookup_first: false,
  clock_doubt_ms: 0,
  reason: null,
  result: null,
  attempts: [],
  delayMs: 0,
};

describe.runIf(postgresAvailable())('answers on PostgreSQL', () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  let tables = 0;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });

  /**
   * A store on a client that counts the answer statements, can hold the next one until released, and can fail
   * the next one; `count` payouts enqueued and claimed.
   */
  async function setup(count: number) {
    const seen = {
      answers: 0,
      failNext: false,
      hold: undefined as Promise<void> | undefined,
      entered: undefined as (() => void) | undefined,
    };
    const counting: PostgresQueryable = {
      async query(text, values) {
        if (text.includes('jsonb_to_recordset')) {
          seen.answers++;
          seen.entered?.();
          if (seen.hold) await seen.hold;
          if (seen.failNext) {
            seen.failNext = false;
            throw new Error('Connection terminated unexpectedly');
          }
        }
        return pool.query(text, values);
      },
    };
    const store = postgresOutboxStore({ client: counting, table: `answers_${++tables}` });
    await store.migrate();
    const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
    for (let i = 0; i < count; i++) {
      await outbox.enqueue({ amount: '10.00', currency: 'USD', beneficiary: BENEFICIARY });
    }
    const claimed = await store.claim('worker', 60_000, undefined, count);
    return { store, seen, claimed };
  }

  it('of one turn share one statement, each fenced by its own token', async () => {
    const { store, seen, claimed } = await setup(3);
    const [a, b, c] = claimed;
    const written = await Promise.all([
      store.write(a!.reference, a!.token, WRITE),
      store.write(b!.reference, b!.token + 1, WRITE), // another owner's token now: fenced out
      store.write(c!.reference, c!.token, WRITE),
    ]);
    expect(written).toEqual([true, false, true]);
    expect(seen.answers).toBe(1);
    const rows = await Promise.all(claimed.map(async (row) => (await store.get(row.reference))!));
    expect(rows.map((row) => row.state)).toEqual(['created', 'pending', 'created']);
    // The lease is given back with the answer; the fenced-out row keeps its claim.
    expect(rows.map((row) => row.owner)).toEqual([null, 'worker', null]);
  });

  it('write every field as one statement of its own did', async () => {
    const { store, claimed } = await setup(3);
    const [a, b, c] = claimed;
    const created = { payout: { id: 'payout_1', status: 'pending' } } as never;
    const attempt = { at: new Date(0).toISOString(), kind: 'post', status: 200 } as never;
    const before = await store.now();
    await Promise.all([
      store.write(a!.reference, a!.token, { ...WRITE, result: created, attempts: [attempt] }),
      store.write(b!.reference, b!.token, {
        ...WRITE,
        state: 'sending',
        reason: 'looking again',
        delayMs: 60_000,
        lookups: 2,
        doubted: true,
        clock_doubt_ms: 1500,
        last_sent_at: 1_700_000_000_123,
      }),
      store.write(c!.reference, c!.token, {
        ...WRITE,
        state: 'unknown',
        accepted: false,
        lookup_first: true,
      }),
    ]);
    const [ra, rb, rc] = await Promise.all(claimed.map(async (row) => (await store.get(row.reference))!));
    expect(ra).toMatchObject({ state: 'created', result: created, attempts: [attempt], doubted: false });
    expect(rb).toMatchObject({ state: 'sending', reason: 'looking again', lookups: 2, doubted: true });
    expect(rb!.clock_doubt_ms).toBe(1500);
    expect(rb!.last_sent_at).toBe(1_700_000_000_123);
    expect(rb!.next_attempt_at).toBeGreaterThanOrEqual(before + 60_000);
    // No result given: NULL, not a JSON null; no send time given: the recorded one stays (none here).
    expect(rc).toMatchObject({ state: 'unknown', result: null, accepted: false, lookup_first: true });
    expect(rc!.last_sent_at).toBe(claimed[2]!.last_sent_at);
    const { rows } = await pool.query(
      `SELECT result IS NULL AS none FROM answers_${tables} WHERE reference = $1`,
      [c!.reference],
    );
    expect(rows[0]!.none).toBe(true);
  });

  it('issued while a statement is in flight go together in the next, once it has ended', async () => {
    const { store, seen, claimed } = await setup(4);
    let release!: () => void;
    seen.hold = new Promise((resolve) => {
      release = resolve;
    });
    const entered = new Promise<void>((resolve) => {
      seen.entered = resolve;
    });
    const first = store.write(claimed[0]!.reference, claimed[0]!.token, WRITE);
    await entered;
    // Three more, each in a turn of its own, while the first statement is held.
    const rest: Promise<boolean>[] = [];
    for (const row of claimed.slice(1)) {
      rest.push(store.write(row.reference, row.token, WRITE));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen.answers).toBe(1);
    seen.hold = undefined;
    release();
    expect(await Promise.all([first, ...rest])).toEqual([true, true, true, true]);
    expect(seen.answers).toBe(2);
  });

  it('to one reference twice in a turn apply in order, in two statements', async () => {
    const { store, seen, claimed } = await setup(1);
    const [row] = claimed;
    const written = await Promise.all([
      store.write(row!.reference, row!.token, { ...WRITE, state: 'sending', reason: 'first' }),
      store.write(row!.reference, row!.token, { ...WRITE, state: 'unknown', reason: 'second' }),
    ]);
    // The first gave the lease back; the token is unchanged, so the second is still this owner's.
    expect(written).toEqual([true, true]);
    expect(seen.answers).toBe(2);
    expect((await store.get(row!.reference))!).toMatchObject({ state: 'unknown', reason: 'second' });
  });

  it('in a statement that fails are each rejected, none written, and the next ones go', async () => {
    const { store, seen, claimed } = await setup(2);
    seen.failNext = true;
    const results = await Promise.all(
      claimed.map((row) => rejection(store.write(row.reference, row.token, WRITE))),
    );
    expect(results.map((r) => (r as Error).message)).toEqual([
      'Connection terminated unexpectedly',
      'Connection terminated unexpectedly',
    ]);
    for (const row of claimed) expect((await store.get(row.reference))!.state).toBe('pending');
    expect(await Promise.all(claimed.map((row) => store.write(row.reference, row.token, WRITE)))).toEqual([
      true,
      true,
    ]);
  });
});
