/**
 * SQLite's claim marks a fresh row "in one transaction (one commit) unless the handle is inside one
 * already" (sqlite.ts claim). When the caller's transaction is open on the store's handle, the claim and its
 * mark become part of the caller's transaction, and the POST leaves before that transaction ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPayoutOutbox, OutboxEnvironmentError, sqliteOutboxStore } from '../../src/outbox/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { wiredClient } from '../helpers/wire.js';

let dir: string;
let db: DatabaseSync;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'review2-sqlite-'));
  db = new DatabaseSync(join(dir, 'app.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function setup() {
  // NGN: the service assigns the reference, so nothing in the spec de-duplicates a second POST.
  const mock = createPaymentsMock({ dedupeByReference: false });
  const { client, posts } = wiredClient(mock);
  const store = sqliteOutboxStore({ database: db });
  await store.migrate();
  db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, status TEXT)');
  const outbox = createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0] });
  const before = mock.account().transactions.length;
  return { outbox, posts, made: () => mock.account().transactions.length - before };
}

const ngn = (remark: string) => ({ amount: '5000.00', currency: 'NGN', beneficiary: BENEFICIARY, remark });

it('a claim made while the application has a transaction open on the same handle does not send the payout twice', async () => {
  const { outbox, posts, made } = await setup();
  const { reference } = await outbox.enqueue(ngn('Invoice review2-sqlite-1'));
  // The application's own transaction on the one handle of the process (a request handler awaiting something).
  db.exec('BEGIN');
  db.exec(`INSERT INTO invoices (status) VALUES ('approving')`);
  // The worker's turn comes meanwhile: refused while the transaction is open, nothing sent.
  const refused = await outbox.settle(reference).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(OutboxEnvironmentError);
  expect((refused as OutboxEnvironmentError).field).toBe('database');
  expect(posts()).toBe(0);
  db.exec('ROLLBACK'); // the application's work failed
  // Failed before the fix: the claim's lease and mark (state sending, sends 1) were written inside the
  // application's transaction and rolled back with it, after the POST had left. The row was pending, sends 0
  // again: the next claim marked it fresh and POSTed without a lookup, so the payout was sent twice.
  const second = await outbox.settle(reference);
  expect({ second: second.state, posts: posts(), made: made() }).toEqual({
    second: 'created',
    posts: 1,
    made: 1,
  });
});

it('a payout enqueued in a transaction that is rolled back is never sent', async () => {
  const { outbox, posts, made } = await setup();
  db.exec('BEGIN');
  const { reference } = await outbox.enqueue(ngn('Invoice review2-sqlite-2'), { tx: db });
  // The worker, in the same process on the same handle, sees the uncommitted row and settles it.
  await outbox.settle(reference).catch(() => undefined);
  db.exec('ROLLBACK');
  // Failed before the fix (claims are now refused while the handle is in a transaction): the claim read and marked the row through the caller's open transaction; the POST leaves, then the
  // rollback erases the row. Money moved for a payout the application rolled back, and the outbox has no record
  // of it (get() is undefined), so nothing will ever track or reconcile it.
  expect({ posts: posts(), made: made(), recorded: (await outbox.get(reference)) !== undefined }).toEqual({
    posts: 0,
    made: 0,
    recorded: false,
  });
});
