/**
 * The SQLite store writes the answers of one turn of the event loop in one transaction: one commit for all,
 * each still fenced by its own token, none resolved before the commit that holds it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { createPayoutOutbox, type OutboxWrite, sqliteOutboxStore } from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

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

let dir: string;
let db: DatabaseSync;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  db = new DatabaseSync(join(dir, 'outbox.db'));
});
afterEach(() => {
  vi.useRealTimers();
  if (db.isOpen) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The store on a handle that counts commits, and fails the next one when told to. */
async function setup(count: number) {
  const seen = { commits: 0, failNext: false };
  const handle = new Proxy(db, {
    get(target, key) {
      if (key === 'exec') {
        return (sql: string) => {
          if (/^\s*COMMIT/i.test(sql)) {
            if (seen.failNext) {
              seen.failNext = false;
              throw new Error('disk I/O error');
            }
            seen.commits++;
          }
          return target.exec(sql);
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const store = sqliteOutboxStore({ database: handle });
  await store.migrate();
  const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0] });
  for (let i = 0; i < count; i++) {
    await outbox.enqueue({ amount: '10.00', currency: 'USD', beneficiary: BENEFICIARY });
  }
  const claimed = await store.claim('worker', 60_000, undefined, count);
  return { store, seen, claimed };
}

describe('answers of one turn', () => {
  it('share one commit, each fenced by its own token', async () => {
    const { store, seen, claimed } = await setup(3);
    expect(claimed).toHaveLength(3);
    seen.commits = 0;
    const [a, b, c] = claimed;
    const written = await Promise.all([
      store.write(a!.reference, a!.token, WRITE),
      store.write(b!.reference, b!.token + 1, WRITE), // another owner's token now: fenced out
      store.write(c!.reference, c!.token, WRITE),
    ]);
    expect(written).toEqual([true, false, true]);
    expect(seen.commits).toBe(1);
    const states = await Promise.all(claimed.map(async (row) => (await store.get(row.reference))!.state));
    expect(states).toEqual(['created', 'pending', 'created']);
  });

  it('a commit that fails rejects every write of its batch, and none is written', async () => {
    const { store, seen, claimed } = await setup(2);
    seen.failNext = true;
    const results = await Promise.all(
      claimed.map((row) => rejection(store.write(row.reference, row.token, WRITE))),
    );
    expect(results.map((r) => (r as Error).message)).toEqual(['disk I/O error', 'disk I/O error']);
    for (const row of claimed) expect((await store.get(row.reference))!.state).toBe('pending');
    // The handle is usable again: the next turn's writes commit.
    expect(await Promise.all(claimed.map((row) => store.write(row.reference, row.token, WRITE)))).toEqual([
      true,
      true,
    ]);
  });

  it('a write made while the caller holds a transaction on the handle runs in it, as before', async () => {
    const { store, claimed } = await setup(1);
    const [row] = claimed;
    db.exec('BEGIN');
    expect(await store.write(row!.reference, row!.token, WRITE)).toBe(true);
    db.exec('ROLLBACK');
    // Rolled back with the caller's transaction: the row is as claimed, and will be looked up before any send.
    expect((await store.get(row!.reference))!.state).toBe('pending');
  });

  it('answers queued before a transaction of the caller began wait for it to end, and are not rolled back with it', async () => {
    const { store, claimed } = await setup(1);
    const [row] = claimed;
    const written = store.write(row!.reference, row!.token, WRITE);
    db.exec('BEGIN'); // in the same turn: the application's own work on the handle, held across a turn
    await new Promise((resolve) => setImmediate(resolve));
    db.exec('ROLLBACK');
    expect(await written).toBe(true);
    expect((await store.get(row!.reference))!.state).toBe('created');
  });

  it('settle under a fake clock installed before the store loaded, which no one advances', async () => {
    const { claimed } = await setup(2);
    vi.useFakeTimers();
    vi.resetModules();
    const fresh = await import('../../src/outbox/index.js');
    const store = fresh.sqliteOutboxStore({ database: db });
    const written = await Promise.all(claimed.map((row) => store.write(row.reference, row.token, WRITE)));
    expect(written).toEqual([true, true]);
  });

  it('a handle closed while answers wait rejects each of them, and nothing escapes', async () => {
    const { store, claimed } = await setup(2);
    const waiting = claimed.map((row) => rejection(store.write(row.reference, row.token, WRITE)));
    db.close();
    const errors = await Promise.all(waiting);
    for (const error of errors) expect(error).toBeInstanceOf(Error);
  });
});
