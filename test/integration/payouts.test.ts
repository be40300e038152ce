import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  BadRequestError,
  createExternalReference,
  InternalServerError,
  PayoutMayHaveMovedError,
  PayoutOutcomeUnknownError,
  RequestValidationError,
} from '../../src/index.js';
import { lookupBeforeRetry, type PayoutAttemptEvent } from '../../src/payouts/index.js';
import { payoutFee } from '../../src/testing/index.js';
import {
  BENEFICIARY,
  clientFor,
  ngnPayout,
  rejection,
  settle,
  useFakeClock,
  useMock,
} from '../helpers/mock.js';

// These tests find NGN payouts by the caller's reference, which the mock keeps only on request (the spec has
// the service assign NGN references; test/mock-fidelity-ngn.test.ts covers that default).
const { mock, requests } = useMock({ assignNgnReferences: false });

/** Payouts the mock holds for a reference: stored transactions and stored payout results. */
function payoutsFor(reference: string) {
  const account = mock.account();
  return {
    transactions: account.transactions
      .filter((t) => t.row.external_reference === reference)
      .map((t) => t.row),
    results: [...account.payouts.values()].filter((p) => p.external_reference === reference),
  };
}

function ngnBalance(): number {
  return mock.account().wallets.find((w) => w.currency === 'NGN')!.balance;
}

const posts = () => requests.filter((r) => r === 'POST /payouts').length;

describe('payouts.create', () => {
  it('takes major units, answers minor units and deducts amount + fee from the wallet', async () => {
    const client = clientFor(mock);
    const before = (await client.wallet.list()).find((w) => w.currency === 'NGN')!;
    const reference = createExternalReference('inv');

    const payout = await client.payouts.create({
      amount: '5000.50',
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      remark: 'Invoice 42',
      externalReference: reference,
    });

    const destination = 500_050;
    const fee = payoutFee('NGN', destination);
    expect(fee).toBe(5_001);
    expect(payout).toEqual({
      id: expect.any(String),
      remark: 'Invoice 42',
      external_reference: reference,
      fee_amount: fee,
      created_at: expect.any(String),
      destination_amount: destination,
      amount: destination + fee,
      beneficiary: {
        bank_code: '000013',
        bank_name: 'Guaranty Trust Bank',
        account_name: 'ADAEZE KEMI OKAFOR',
      },
    });

    // Deducted: through the SDK and in the mock's state.
    const after = (await client.wallet.list()).find((w) => w.currency === 'NGN')!;
    expect(after.balance).toBe((before.balance as number) - payout.amount);
    expect(after.available_balance).toBe((before.available_balance as number) - payout.amount);
    expect(ngnBalance()).toBe(2_500_000_000 - 505_051);

    // Listed as a withdrawal under the reference.
    const listed = (await client.transactions.list({ pageSize: 100 }).toArray()).find(
      (tx) => 'external_reference' in tx && tx.external_reference === reference,
    );
    expect(listed).toMatchObject({
      id: payout.id,
      transaction_type: 'withdrawal',
      status: 'processing',
      description: 'Invoice 42',
      fee_amount: fee,
      destination_amount: destination,
      source_amount: destination + fee,
      source_currency: 'NGN',
    });
    expect(listed).not.toHaveProperty('payment_rail');
    expect(payoutsFor(reference).transactions).toHaveLength(1);
  });

  it('amountMinor and no reference: sent as the major number, and the service assigns a reference', async () => {
    const payout = await clientFor(mock).payouts.create({
      amountMinor: 10_000,
      currency: 'USD',
      beneficiary: BENEFICIARY,
    });
    expect(mock.account().transactions[0]?.row).toMatchObject({ destination_amount: 10_000 });
    expect(payout).toMatchObject({ destination_amount: 10_000, fee_amount: 100, amount: 10_100 });
    expect(payout.external_reference).toMatch(/^PO-\d{8}-/);
    expect(mock.account().wallets.find((w) => w.currency === 'USD')!.balance).toBe(12_500_000 - 10_100);
  });

  it('XAF has no minor unit: 1500 XAF is 1500 minor units', async () => {
    const payout = await clientFor(mock).payouts.create({
      amount: '1500',
      currency: 'XAF',
      beneficiary: BENEFICIARY,
    });
    expect(payout).toMatchObject({ destination_amount: 1_500, fee_amount: 15, amount: 1_515 });
  });

  it('a repeated externalReference returns the original payout and deducts once', async () => {
    const client = clientFor(mock);
    const body = { amount: '2000.00', currency: 'NGN', beneficiary: BENEFICIARY, externalReference: 'dup-1' };
    const first = await client.payouts.create(body);
    const second = await client.payouts.create(body);
    expect(second).toEqual(first);
    expect(ngnBalance()).toBe(2_500_000_000 - first.amount);
    expect(payoutsFor('dup-1').transactions).toHaveLength(1);
  });

  it('an amount the currency cannot represent is refused before sending', async () => {
    const error = await rejection(
      clientFor(mock).payouts.create({
        amount: '10.005' as never,
        currency: 'NGN',
        beneficiary: BENEFICIARY,
      }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('amount');
    expect(requests).toEqual([]);
  });

  it('insufficient balance is a BadRequestError and moves nothing', async () => {
    const error = await rejection(
      clientFor(mock).payouts.create({ amount: '10000000', currency: 'USDT', beneficiary: BENEFICIARY }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(/Insufficient USDT balance/);
    expect(mock.account().wallets.find((w) => w.currency === 'USDT')!.balance).toBe(3_000_000);
  });

  it('a dropped connection after commit may have moved money, and it did', async () => {
    mock.faults.dropAfterCommit('POST /payouts');
    const error = await rejection(clientFor(mock).payouts.create(ngnPayout('lost-1')));
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as PayoutMayHaveMovedError).cause).toBeInstanceOf(APIConnectionError);
    expect(payoutsFor('lost-1').transactions).toHaveLength(1);
    expect(posts()).toBe(1);
  });
});

describe('payouts.lookupBeforeRetry', () => {
  const body = (externalReference: string) => ({
    amount: '5000.00',
    currency: 'NGN',
    beneficiary: BENEFICIARY,
    externalReference,
  });

  it('created at once when the first POST is answered', async () => {
    const outcome = await lookupBeforeRetry(clientFor(mock), body('ok-1'), {
      visibilityWaits: [20, 50],
    });
    expect(outcome).toMatchObject({ status: 'created', attempts: 1, externalReference: 'ok-1' });
    expect(outcome.status === 'created' && outcome.payout).toMatchObject({
      external_reference: 'ok-1',
      amount: 505_000,
    });
    expect(requests).toEqual(['POST /payouts']);
  });

  it('drop after commit: recovered from the listing, exactly one payout', async () => {
    mock.faults.dropAfterCommit('POST /payouts');
    const events: PayoutAttemptEvent[] = [];
    const outcome = await lookupBeforeRetry(clientFor(mock), body('drop-1'), {
      visibilityWaits: [20, 50],
      onAttempt: (e) => events.push(e),
    });
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 1, externalReference: 'drop-1' });
    expect(outcome.status === 'recovered' && outcome.transaction).toMatchObject({
      external_reference: 'drop-1',
      transaction_type: 'withdrawal',
      status: 'processing',
      source_amount: 505_000,
    });
    const held = payoutsFor('drop-1');
    expect(held.transactions).toHaveLength(1);
    expect(held.results).toHaveLength(1);
    expect((outcome.status === 'recovered' ? outcome.transaction : undefined)?.id).toBe(
      held.transactions[0]!.id,
    );
    expect(ngnBalance()).toBe(2_500_000_000 - 505_000);
    expect(posts()).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['post', 'ambiguous', 'lookup', 'recovered']);
  });

  // This mock keeps the caller's reference on NGN payouts (opted in above); `match` is how a caller says so.
  const byReference = (tx: { external_reference?: string }, ref: string) => tx.external_reference === ref;

  it('NGN by default: a payout the lookups cannot find is not sent again (the service may assign the reference)', async () => {
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const error = await rejection(
      lookupBeforeRetry(clientFor(mock), body('ngn-unknown-1'), {
        visibilityWaits: [20, 50],
        listingLagMs: 70,
      }),
    );
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(
      /lists NGN payouts under a reference it assigns/,
    );
    expect(posts()).toBe(1);
    expect(payoutsFor('ngn-unknown-1').transactions).toHaveLength(0);
  });

  it('503 before anything was stored: a doubt; proven absent after the listing lag, created by the second POST', async () => {
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const events: PayoutAttemptEvent[] = [];
    const outcome = await lookupBeforeRetry(clientFor(mock), body('retry-1'), {
      visibilityWaits: [20, 50],
      listingLagMs: 70,
      match: byReference,
      onAttempt: (e) => events.push(e),
    });
    expect(outcome).toMatchObject({ status: 'created', attempts: 2 });
    expect((outcome.status === 'created' ? outcome.payout : undefined)?.external_reference).toBe('retry-1');
    expect(payoutsFor('retry-1').transactions).toHaveLength(1);
    expect(ngnBalance()).toBe(2_500_000_000 - 505_000);
    expect(posts()).toBe(2);
    expect(events.map((e) => e.type)).toEqual(['post', 'ambiguous', 'lookup', 'lookup', 'post', 'created']);
    // Each lookup searched the failed listing, the default one and the failed one again, in one window.
    const lookups = requests.filter((r) => r.startsWith('GET /transactions'));
    expect(lookups).toHaveLength(6);
    expect(lookups.filter((r) => r.includes('status=failed'))).toHaveLength(4);
    expect(
      new Set(lookups.map((r) => new URL(r.slice(4), mock.baseUrl).searchParams.get('startDate'))).size,
    ).toBe(1);
  });

  it('listing lag shorter than the waits: the second lookup finds it (fake clock)', async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.faults.dropAfterCommit('POST /payouts').listingLag(30);
    const events: PayoutAttemptEvent[] = [];
    const outcome = await settle(
      lookupBeforeRetry(clientFor(mock), body('lag-1'), {
        visibilityWaits: [20, 50],
        onAttempt: (e) => events.push(e),
      }),
    );
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });
    expect((outcome.status === 'recovered' ? outcome.transaction : undefined)?.created_at).toBe(
      '2026-03-02T09:00:00.000Z',
    );
    expect(
      events
        .filter((e) => e.type === 'lookup')
        .map((e) => [e.type === 'lookup' && e.waitedMs, e.type === 'lookup' && e.found]),
    ).toEqual([
      [20, false],
      [70, true],
    ]);
    expect(payoutsFor('lag-1').transactions).toHaveLength(1);
    expect(posts()).toBe(1);
  });

  it('listing lag shorter than the waits, real timers: recovered', async () => {
    mock.faults.dropAfterCommit('POST /payouts').listingLag(10);
    const outcome = await lookupBeforeRetry(clientFor(mock), body('lag-2'), {
      visibilityWaits: [20, 50],
    });
    expect(outcome.status).toBe('recovered');
    expect(payoutsFor('lag-2').transactions).toHaveLength(1);
    expect(posts()).toBe(1);
  });

  it('dedupe off and drop after commit: the lookup prevents a second POST, still one payout', async () => {
    mock.settings.dedupeByReference = false;
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(clientFor(mock), body('nodedupe-1'), {
      visibilityWaits: [20, 50],
    });
    expect(outcome.status).toBe('recovered');
    expect(payoutsFor('nodedupe-1').transactions).toHaveLength(1);
    expect(ngnBalance()).toBe(2_500_000_000 - 505_000);
    expect(posts()).toBe(1);
  });

  it('lag longer than every wait: no POST before the listing lag has passed, and the payout is found then', async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.faults.dropAfterCommit('POST /payouts').listingLag(1_000);
    const outcome = await settle(
      lookupBeforeRetry(clientFor(mock), body('slow-1'), {
        visibilityWaits: [20, 50],
        listingLagMs: 5_000,
        match: byReference,
      }),
    );
    // The waits ended before the row was listed; the proof the second POST needs comes after listingLagMs, when
    // the payout is listed.
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });
    const held = payoutsFor('slow-1');
    expect(held.transactions).toHaveLength(1);
    expect((outcome.status === 'recovered' ? outcome.transaction : undefined)?.id).toBe(
      held.transactions[0]!.id,
    );
    expect(ngnBalance()).toBe(2_500_000_000 - 505_000);
    expect(posts()).toBe(1);
  });

  it('a payout found failed is still recovered (the failed listing is searched too); check its status', async () => {
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(clientFor(mock), body('failed-1'), {
      visibilityWaits: [20, 50],
      // The rail rejects the payout between the lost answer and the lookup.
      onAttempt: (e) => {
        if (e.type !== 'ambiguous') return;
        const row = mock.account().transactions.find((t) => t.row.external_reference === 'failed-1')!.row;
        row.status = 'failed';
      },
    });
    expect(outcome).toMatchObject({
      status: 'recovered',
      transaction: { external_reference: 'failed-1', status: 'failed' },
    });
    expect(posts()).toBe(1);
    // The failed listing is read first: a payout that failed is found there at once.
    expect(requests.filter((r) => r.startsWith('GET /transactions'))).toEqual([
      expect.stringContaining('status=failed'),
    ]);
  });

  it('through forAccount: POST and lookups run as the tenant account', async () => {
    const businessId = mock.state.businessAccountId;
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(clientFor(mock).forAccount(businessId), body('tenant-1'), {
      visibilityWaits: [20, 50],
    });
    expect(outcome.status).toBe('recovered');
    expect(mock.account(businessId).payouts.has('tenant-1')).toBe(true);
    expect(mock.account().payouts.has('tenant-1')).toBe(false);
    expect(posts()).toBe(1);
  });

  it('lookups that keep failing: PayoutOutcomeUnknownError, never a second POST', async () => {
    useFakeClock(new Date('2026-03-02T09:00:00.000Z'));
    mock.faults
      .dropAfterCommit('POST /payouts')
      .next({ status: 503, match: 'GET /transactions', times: 100 });
    const error = await settle(
      lookupBeforeRetry(clientFor(mock), body('unknown-1'), { visibilityWaits: [20, 50] }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(error).toMatchObject({ externalReference: 'unknown-1', attempts: 1 });
    // The lost POST, then one failed lookup per wait, and one once the listing lag (15 s) has passed.
    expect((error as PayoutOutcomeUnknownError).errors).toEqual([
      expect.any(APIConnectionError),
      expect.any(InternalServerError),
      expect.any(InternalServerError),
      expect.any(InternalServerError),
    ]);
    expect(posts()).toBe(1);
    // It did move: the caller must look it up later under the same reference.
    expect(payoutsFor('unknown-1').transactions).toHaveLength(1);
  });

  it('a definite refusal (400) is thrown at once, with no lookup', async () => {
    const error = await rejection(
      lookupBeforeRetry(
        clientFor(mock),
        { ...body('poor-1'), amount: '10000000', currency: 'USDT' },
        { visibilityWaits: [20, 50] },
      ),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(requests).toEqual(['POST /payouts']);
  });

  it('refuses a body without an externalReference before sending', async () => {
    const error = await rejection(
      lookupBeforeRetry(clientFor(mock), {
        ...body(''),
        externalReference: undefined as unknown as string,
      }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(requests).toEqual([]);
  });
});
