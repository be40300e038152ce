/**
 * Issue 29: "not in the listing" must be a proof. One test per case the issue proved against the landed code
 * (1ac8de0), each of which sent a second payout (or reported absence of a listed one) there, through the SDK and
 * the outbox; case 6 (a failover) is failover.test.ts, case 7 and the MCP runs of cases 1 and 4 are in the MCP
 * package's absence.test.ts. Nothing here needs a lying server: each rests on something the spec allows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  PaymentsClient,
  PayoutLookupIncompleteError,
  PayoutOutcomeUnknownError,
  PayoutReferenceReusedError,
  RequestValidationError,
  remarkMatch,
} from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { findByReference, lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, type PaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

// These cases are about the proof, not the listing lag: a proof counts as soon as it is read.
const WAITS = { visibilityWaits: [0], listingLagMs: 0 };
let mock: PaymentsMock;
afterEach(() => mock?.reset());

/**
 * A client on a mock that does not dedupe (as the spec says of NGN), every POST counted; `afterPost` runs right
 * after the service has stored a POST, `drop` cuts the answer there (the payout exists, its answer is lost).
 */
function rig(options: Parameters<typeof createPaymentsMock>[0] = {}, clientOptions = {}) {
  mock = createPaymentsMock({ dedupeByReference: false, ...options });
  let posts = 0;
  const hooks: { afterPost?: () => void; drop?: boolean } = {};
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    ...clientOptions,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method !== 'POST') return mock.fetch(request);
      posts++;
      const response = await mock.fetch(request);
      hooks.afterPost?.();
      if (hooks.drop) throw new TypeError('fetch failed (connection reset after the service stored it)');
      return response;
    },
  });
  const withdrawals = (description: string) =>
    mock
      .account()
      .transactions.filter(
        (t) => t.row.transaction_type === 'withdrawal' && t.row.description === description,
      );
  return { client, hooks, posts: () => posts, withdrawals };
}

/**
 * The payout just stored becomes row 101 of the listing: 99 newer rows, and one more that shares its timestamp and
 * sorts before it among equals. With `unstableTieOrder`, page 1 of an offset walk ends on the partner, page 2
 * starts on it again: the payout is on neither page, and no counter changes.
 */
function straddle(description: string) {
  const payout = mock.account().transactions.find((t) => t.row.description === description)!.row;
  const at = Date.parse(payout.created_at);
  mock.transactions.add({
    id: '00000000-0000-4000-8000-000000000000',
    created_at: payout.created_at,
    description: 'tie partner',
  });
  for (let i = 1; i <= 99; i++) {
    mock.transactions.add({ created_at: new Date(at + i * 1000).toISOString(), description: `newer ${i}` });
  }
}

const ngn = (externalReference: string, remark: string, amount = '5000.00') => ({
  amount,
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  remark,
  externalReference,
});

describe('case 1: offset paging can skip the payout; a walk by time cannot', () => {
  it('findByReference finds a listed payout whose tie partner straddles the page boundary', async () => {
    const { client } = rig({ invented: { unstableTieOrder: true } });
    const payout = await client.payouts.create({
      ...ngn('tie-find', 'tie find'),
      currency: 'USD',
      amount: '10.00',
    });
    straddle('tie find');
    const found = await findByReference(client, 'tie-find', { currency: 'USD' });
    expect(found?.id).toBe(payout.id);
  });

  it('lookupBeforeRetry({ match }) recovers the NGN payout instead of sending it twice', async () => {
    const { client, hooks, posts, withdrawals } = rig({ invented: { unstableTieOrder: true } });
    const body = ngn('tie-ngn', 'Invoice tie 1');
    hooks.drop = true;
    hooks.afterPost = () => {
      hooks.afterPost = undefined;
      straddle('Invoice tie 1');
    };
    const outcome = await lookupBeforeRetry(client, body, { ...WAITS, match: remarkMatch(body) });
    expect(outcome.status).toBe('recovered');
    expect(posts()).toBe(1);
    expect(withdrawals('Invoice tie 1')).toHaveLength(1);
  });

  it('the outbox recovers it too', async () => {
    const { client, hooks, posts, withdrawals } = rig({ invented: { unstableTieOrder: true } });
    const outbox = createPayoutOutbox({
      client,
      store: memoryOutboxStore(),
      timeout: 2000,
      visibilityWaits: [0],
    });
    const { reference } = await outbox.enqueue({
      amount: '5000.00',
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      remark: 'Invoice tie 2',
    });
    hooks.drop = true;
    hooks.afterPost = () => {
      hooks.afterPost = undefined;
      straddle('Invoice tie 2');
    };
    expect((await outbox.settle(reference)).state).toBe('recovered');
    expect(posts()).toBe(1);
    expect(withdrawals('Invoice tie 2')).toHaveLength(1);
  });

  it('a newer row leaving the default listing and an older one appearing late between two reads skip nothing', async () => {
    const { client } = rig();
    const body = ngn('shift-1', 'Invoice shift 1');
    await client.payouts.create(body);
    const at = Date.parse(mock.transactions.get('shift-1').created_at);
    for (let i = 1; i <= 150; i++) {
      mock.transactions.add({ created_at: new Date(at + i * 1000).toISOString(), description: `newer ${i}` });
    }
    let reads = 0;
    const shifting = client.withOptions({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const response = await mock.fetch(request);
        // After the first read of the default listing: its newest row fails, and an older row shows up late.
        if (!new URL(request.url).searchParams.has('status') && ++reads === 1) {
          mock.transactions.setStatus(mock.account().transactions[0]!.row.id, 'failed');
          mock.transactions.add({ created_at: new Date(at - 30_000).toISOString(), description: 'late' });
        }
        return response;
      },
    });
    const found = await findByReference(shifting, 'shift-1', { match: remarkMatch(body) });
    expect(found?.description).toBe('Invoice shift 1');
    expect(reads).toBeGreaterThan(1);
  });
});

describe('case 2: one definition of "the service assigns this reference"', () => {
  it('an XAF payout listed under a service reference is never proven absent by its own reference', async () => {
    const { client, hooks, posts } = rig(
      { serviceAssignedCurrencies: ['NGN', 'XAF'] },
      { serviceAssignedCurrencies: ['XAF'] },
    );
    hooks.drop = true;
    const body = { amount: '1500', currency: 'XAF', beneficiary: BENEFICIARY, externalReference: 'xaf-1' };
    const error = await rejection(lookupBeforeRetry(client, body, WAITS));
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(
      /lists XAF payouts under a reference it assigns/,
    );
    expect(posts()).toBe(1);
    const search = await rejection(findByReference(client, 'xaf-1', { currency: 'XAF' }));
    expect(search).toBeInstanceOf(PayoutLookupIncompleteError);
    // Without the payout's currency, an XAF withdrawal in the window is a row that might be it.
    const unsure = await rejection(findByReference(client, 'xaf-1'));
    expect((unsure as PayoutLookupIncompleteError).reason).toMatch(
      /XAF withdrawal under a reference the service assigns/,
    );
  });
});

describe('case 3: a remark that identifies a payout is normalised and checked like a reference', () => {
  it('edge white space is refused before anything is sent; a service that re-spaces a remark still lists the payout', async () => {
    const { client, hooks, posts, withdrawals } = rig({
      invented: { normaliseRemark: (r) => r.trim().replace(/\s+/g, ' ') },
    });
    expect(() => remarkMatch({ remark: ' Invoice 78 ', amount: '5000.00', currency: 'NGN' })).toThrow(
      RequestValidationError,
    );
    expect(posts()).toBe(0);
    const body = ngn('remark-1', 'Invoice  78');
    hooks.drop = true;
    const outcome = await lookupBeforeRetry(client, body, { ...WAITS, match: remarkMatch(body) });
    expect(outcome.status).toBe('recovered');
    expect(posts()).toBe(1);
    expect(withdrawals('Invoice 78')).toHaveLength(1);
  });

  it('a row with the same remark and another amount is a doubt: never "the payout", never a second POST', async () => {
    // A fee taken from the amount, other units, or another payout: the row cannot be told apart.
    const { client, posts } = rig();
    mock.transactions.add({ description: 'Invoice 42', destination_amount: 700_000 });
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const body = ngn('remark-2', 'Invoice 42');
    const error = await rejection(
      lookupBeforeRetry(client, body, { ...WAITS, maxAttempts: 2, match: remarkMatch(body) }),
    );
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(
      /same remark lists destination_amount 700000, not 500000/,
    );
    expect(posts()).toBe(1);
  });

  it('a remark listed shortened (a service that cuts descriptions) is a doubt, never proof of absence', async () => {
    const { client, posts } = rig();
    const remark = `Invoice 43 ${'x'.repeat(66)}`;
    mock.transactions.add({ description: remark.slice(0, 64), destination_amount: 500_000 });
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const body = ngn('remark-3', remark);
    const error = await rejection(
      lookupBeforeRetry(client, body, { ...WAITS, maxAttempts: 2, match: remarkMatch(body) }),
    );
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(/remark shortened/);
    expect(posts()).toBe(1);
  });

  it('a USD row under the reference with another amount is not the payout: PayoutReferenceReusedError, no POST', async () => {
    const { client, posts } = rig();
    mock.transactions.add({
      external_reference: 'usd-reused',
      destination_amount: 90_000,
      destination_currency: 'USD',
    });
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const body = {
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference: 'usd-reused',
    };
    const error = await rejection(lookupBeforeRetry(client, body, { ...WAITS, maxAttempts: 2 }));
    expect(error).toBeInstanceOf(PayoutReferenceReusedError);
    expect((error as PayoutReferenceReusedError).fields).toEqual(['amount']);
    expect(posts()).toBe(1);
  });

  it('the outbox refuses remarks with edge white space and keeps remarks unique ignoring case and spacing', async () => {
    const { client, posts } = rig();
    const outbox = createPayoutOutbox({
      client,
      store: memoryOutboxStore(),
      timeout: 2000,
      visibilityWaits: [0],
    });
    const enqueue = (remark: string, amount: string) =>
      outbox.enqueue({ amount: amount as `${bigint}.00`, currency: 'NGN', beneficiary: BENEFICIARY, remark });
    expect(((await rejection(enqueue('Invoice 42 ', '5000.00'))) as RequestValidationError).field).toBe(
      'remark',
    );
    await enqueue('Invoice 42', '5000.00');
    expect(((await rejection(enqueue('invoice  42', '7000.00'))) as RequestValidationError).field).toBe(
      'remark',
    );
    expect(posts()).toBe(0);
  });
});

describe("case 4: the lookup window follows the service's clock, not this machine's", () => {
  for (const [label, offset] of [
    ['a day behind', 86_400_000],
    ['a day ahead of', -86_400_000],
  ] as const) {
    it(`a client whose clock is ${label} the service's never concludes absent, and says why`, async () => {
      const { client, hooks, posts } = rig({ clockOffsetMs: offset });
      hooks.drop = true;
      const body = {
        amount: '10.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
        externalReference: `skew-${offset}`,
      };
      const error = await rejection(lookupBeforeRetry(client, body, WAITS));
      expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
      // The Date header counts whole seconds and the answer takes a moment: the estimate is a day give or take a
      // second (a CI run read 86399).
      const direction = offset > 0 ? 'behind' : 'ahead of';
      const about = `about (?:86399|86400|86401) s ${direction} the service's`;
      expect((error as PayoutOutcomeUnknownError).reason).toMatch(
        new RegExp(`clock the lookup window was read from is ${about}`),
      );
      expect(posts()).toBe(1);
    });
  }

  it("an outbox whose store's clock disagrees with the service's looks, and never sends again", async () => {
    const { client, hooks, posts } = rig();
    const store = memoryOutboxStore({ now: () => Date.now() - 86_400_000 });
    const outbox = createPayoutOutbox({
      client,
      store,
      timeout: 2000,
      visibilityWaits: [0],
      maxLookups: 2,
      backoff: { baseMs: 0, maxMs: 0 },
      listingLagMs: 0,
    });
    const { reference } = await outbox.enqueue({
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
    });
    hooks.drop = true;
    // Every lookup of the step (no lag, no back-off) meets the clocks' disagreement: none proves anything.
    const first = await outbox.settle(reference);
    expect(first.state).toBe('unknown');
    expect(first.reason).toMatch(/clock the lookup window was read from/);
    hooks.drop = false;
    expect((await outbox.settle(reference)).state).toBe('unknown');
    expect(posts()).toBe(1);
  });
});

describe('case 5: a refusal after a proof is final; the listing lag is the assumption it rests on', () => {
  it('lookupFirst with a listing lagging past listingLagMs (the documented limit): the proof holds, and a 400 after it is final', async () => {
    const { client } = rig();
    const wallet = mock.account().wallets.find((w) => w.currency === 'NGN')!;
    // The earlier process's payout took the balance; the listing does not show it yet.
    wallet.available_balance = 600_000;
    mock.faults.listingLag(3_600_000);
    const body = ngn('restart-1', 'Invoice restart 1');
    await client.payouts.create(body);
    const error = await rejection(
      lookupBeforeRetry(client, body, { ...WAITS, lookupFirst: true, match: remarkMatch(body) }),
    );
    // The listing hid the earlier payout past listingLagMs (0 here): the absence was taken as proven, so the
    // refusal is final. docs/payout-outcomes.md names this assumption; raise listingLagMs past your listing's lag.
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/Insufficient NGN balance/);
  });

  it('after POSTs answered 429 or 503 (each proven absent), a later refusal is final: nothing moved', async () => {
    const { client, posts } = rig();
    mock.faults.next({ status: 503, match: 'POST /payouts' }).next({ status: 400, match: 'POST /payouts' });
    const error = await rejection(
      lookupBeforeRetry(
        client,
        { amount: '10.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'answered-1' },
        { ...WAITS, maxAttempts: 2 },
      ),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(posts()).toBe(2);
  });
});
