import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { wiredClient } from '../helpers/wire.js';

/** The store calls that settle payouts: inserts, claims that took rows, marks, writes. */
function counting(store: PayoutOutboxStore<unknown>) {
  const calls = { insert: 0, claim: 0, mark: 0, write: 0 };
  const counted: PayoutOutboxStore<unknown> = {
    ...store,
    insert: (...args) => {
      calls.insert += 1;
      return store.insert(...args);
    },
    claim: async (...args) => {
      const rows = await store.claim(...args);
      if (rows.length > 0) calls.claim += 1;
      return rows;
    },
    mark: (...args) => {
      calls.mark += 1;
      return store.mark(...args);
    },
    write: (...args) => {
      calls.write += 1;
      return store.write(...args);
    },
  };
  return { counted, calls };
}

for (const [name, open] of [
  ['memory', () => memoryOutboxStore()],
  ['sqlite', () => sqliteOutboxStore({ database: new DatabaseSync(':memory:') })],
] as const) {
  it(`${name}: a payout on the happy path costs 3 database round trips: insert, claim (which marks it), write`, async () => {
    const mock = createPaymentsMock();
    const { client, posts } = wiredClient(mock);
    const { counted, calls } = counting(open());
    await counted.migrate();
    const outbox = createPayoutOutbox({ client, store: counted, tracking: false });
    for (const currency of ['NGN', 'USD', 'NGN']) {
      await outbox.enqueue({ amount: '100.00', currency, beneficiary: BENEFICIARY });
    }
    const summary = await outbox.work({ concurrency: 1, until: 'drained', drainWithinMs: 0, pollMs: 0 });
    expect(summary.settled).toEqual({ created: 3 });
    expect(posts()).toBe(3);
    expect(calls).toEqual({ insert: 3, claim: 3, mark: 0, write: 3 });
  });
}
