import { expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { wiredClient } from '../helpers/wire.js';

/**
 * One store, with an outbox whose client's USD ceiling is 100.00 (`before`), and `lowered()`, one on the same store
 * whose client's ceiling is 10.00: the operator lowered it.
 */
function ceilings() {
  const { client, posts } = wiredClient(createPaymentsMock());
  const store = memoryOutboxStore();
  const limited = (USD: string) =>
    createPayoutOutbox({ client: client.withOptions({ payoutLimits: { USD } }), store });
  return { posts, before: limited('100.00'), lowered: () => limited('10.00') };
}

const usd = (amount: string, externalReference: string) => ({
  amount,
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});

it('a payout recorded under a ceiling since lowered is answered with its record, never refused as unsent', async () => {
  const { posts, before, lowered } = ceilings();
  await before.enqueue(usd('50.00', 'ceiling-1'));
  expect(await before.settle('ceiling-1')).toMatchObject({ state: 'created' });
  // The operator lowers the ceiling; the caller repeats the payout it made.
  const after = lowered();
  const again = await after.enqueue(usd('50', 'ceiling-1'));
  expect(again).toMatchObject({ enqueued: false, record: { state: 'created' } });
  expect(posts()).toBe(1);
  // Another payout over the ceiling, or another amount under the recorded reference, is still refused.
  for (const body of [usd('50.00', 'ceiling-2'), usd('60.00', 'ceiling-1')]) {
    const refused = await rejection(after.enqueue(body));
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as Error).message).toMatch(/payout ceiling/);
  }
  expect(await after.get('ceiling-2')).toBeUndefined();
});

it('an archived payout recorded under a ceiling since lowered is answered with its tombstone', async () => {
  const { posts, before, lowered } = ceilings();
  await before.enqueue(usd('50.00', 'ceiling-archived'));
  await before.settle('ceiling-archived');
  await before.archive({ before: new Date(Date.now() + 60_000) });
  const after = lowered();
  const again = await after.enqueue(usd('50', 'ceiling-archived'));
  expect(again).toMatchObject({
    enqueued: false,
    record: { state: 'created', archivedAt: expect.any(Date) },
  });
  const other = await rejection(after.enqueue(usd('60.00', 'ceiling-archived')));
  expect((other as Error).message).toMatch(/payout ceiling/);
  expect(posts()).toBe(1);
});

it('a payout recorded but never sent, under a ceiling since lowered, ends refused and is never sent', async () => {
  const { posts, before, lowered } = ceilings();
  await before.enqueue(usd('50.00', 'ceiling-unsent'));
  // The operator lowers the ceiling before any worker sent it.
  const after = lowered();
  const settled = await after.settle('ceiling-unsent');
  expect(settled).toMatchObject({ state: 'refused', sends: 0 });
  expect(settled.reason).toMatch(/no longer passes the checks, so nothing was sent: .*payout ceiling/);
  expect(posts()).toBe(0);
});
