import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { BeneficiaryVerificationError, PaymentsClient } from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore, sqliteOutboxStore } from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, type PaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

/** A client on the mock that records each request's method and path. */
function clientOn(mock: PaymentsMock, verifyBeneficiary?: boolean) {
  const sent: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    ...(verifyBeneficiary === undefined ? {} : { verifyBeneficiary }),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(`${request.method} ${new URL(request.url).pathname.replace('/api/v1/external', '')}`);
      return mock.fetch(request);
    },
  });
  return { client, sent };
}

async function setup(kind: 'memory' | 'sqlite', verifyBeneficiary?: boolean) {
  const mock = createPaymentsMock();
  const { client, sent } = clientOn(mock, verifyBeneficiary);
  const db = kind === 'sqlite' ? new DatabaseSync(':memory:') : undefined;
  const store = db ? sqliteOutboxStore({ database: db }) : memoryOutboxStore();
  await store.migrate();
  const outbox = createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0] });
  return { mock, outbox, sent, db };
}

const ngn = (beneficiary: object, remark: string) => ({
  amount: '100.00',
  currency: 'NGN',
  beneficiary: { ...BENEFICIARY, ...beneficiary },
  remark,
  externalReference: remark,
});

describe.each(['memory', 'sqlite'] as const)('the outbox verifies before it records (%s store)', (kind) => {
  it('refuses an unknown account, a contradicted holder and an unlisted bank code: nothing recorded, nothing sent', async () => {
    const { outbox, sent } = await setup(kind, true);
    const cases = [
      [{ accountNumber: '0123456789' }, 'unknown_account'], // odd digit sum: the mock's bank knows it not
      [{ accountName: 'EMEKA BELLO' }, 'name_mismatch'],
      [{ bankCode: '999999' }, 'unknown_bank'],
    ] as const;
    for (const [i, [beneficiary, reason]] of cases.entries()) {
      const error = await rejection(outbox.enqueue(ngn(beneficiary, `inv-${i}`)));
      expect(error).toBeInstanceOf(BeneficiaryVerificationError);
      expect(error).toMatchObject({ reason });
    }
    expect(await outbox.list()).toEqual([]);
    expect(await outbox.count()).toMatchObject({ oldestOpen: null });
    expect(sent.filter((s) => s === 'POST /payouts')).toEqual([]);
  });

  it('records a payout whose beneficiary checks out, and sends it once', async () => {
    const { outbox, sent } = await setup(kind, true);
    const { reference, enqueued } = await outbox.enqueue(
      ngn({ accountName: 'Adaeze Kemi-Okafor' }, 'inv-ok'),
    );
    expect(enqueued).toBe(true);
    expect(sent).toEqual(['GET /banks', 'POST /lookup']);
    expect((await outbox.settle(reference)).state).toBe('created');
    // Checked once, before it was recorded: the send does not ask the bank again.
    expect(sent.slice(2)).toEqual(['POST /payouts']);
  });

  it('follows the client: off by default, nothing is asked of the service before recording', async () => {
    const off = await setup(kind);
    const { enqueued } = await off.outbox.enqueue(ngn({ accountName: 'EMEKA BELLO' }, 'inv-off'));
    expect(enqueued).toBe(true);
    expect(off.sent).toEqual([]);
  });
});

describe('the outbox verifies before it records: per-enqueue options and transactions', () => {
  it('a per-enqueue option overrides the client', async () => {
    const off = await setup('memory');
    const refused = await rejection(
      off.outbox.enqueue(ngn({ accountName: 'EMEKA BELLO' }, 'inv-a'), { verifyBeneficiary: true }),
    );
    expect(refused).toMatchObject({ reason: 'name_mismatch' });
    expect(await off.outbox.list()).toEqual([]);
    const on = await setup('memory', true);
    const kept = await on.outbox.enqueue(ngn({ accountName: 'EMEKA BELLO' }, 'inv-b'), {
      verifyBeneficiary: false,
    });
    expect(kept.enqueued).toBe(true);
    expect(on.sent).toEqual([]);
  });

  it('inside a SQLite transaction the row commits with it after the check; a refusal leaves nothing to roll back', async () => {
    const { outbox, db, sent } = await setup('sqlite', true);
    db!.exec('BEGIN');
    const { enqueued } = await outbox.enqueue(ngn({}, 'inv-tx'), { tx: db });
    db!.exec('COMMIT');
    expect(enqueued).toBe(true);
    db!.exec('BEGIN');
    const refused = await rejection(outbox.enqueue(ngn({ bankCode: '999999' }, 'inv-tx-2'), { tx: db }));
    db!.exec('COMMIT');
    expect(refused).toMatchObject({ reason: 'unknown_bank' });
    expect((await outbox.list()).map((r) => r.reference)).toEqual(['inv-tx']);
    expect(sent.filter((s) => s === 'POST /lookup')).toHaveLength(1);
  });

  it('the same payout enqueued again is answered from its record, even when the check cannot pass now', async () => {
    const { outbox } = await setup('memory');
    const body = ngn({ accountName: 'EMEKA BELLO' }, 'inv-old');
    await outbox.enqueue(body); // recorded before the check was turned on
    const again = await outbox.enqueue(body, { verifyBeneficiary: true });
    expect(again).toMatchObject({ reference: 'inv-old', enqueued: false });
  });
});
