import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PaymentsClient, PayoutOutcomeUnknownError, RequestValidationError } from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore, type PayoutOutboxOptions } from '../../src/outbox/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

type Post = 'commit-and-drop' | 'drop' | 'pass' | Response;

// Only Date is faked: the outbox's store and the mock's clock move together, as one machine's would.
beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

/** A client over a mock that lists every POST it takes (no de-duplication), each POST scripted in turn. */
function scripted(script: Post[], serviceAssignedCurrencies?: string[]) {
  const mock = createPaymentsMock({ dedupeByReference: false });
  let posts = 0;
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    ...(serviceAssignedCurrencies ? { serviceAssignedCurrencies } : {}),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (!(request.method === 'POST' && request.url.endsWith('/payouts'))) return mock.fetch(request);
      const step = script[posts++] ?? 'pass';
      if (step instanceof Response) return step.clone();
      if (step === 'drop') throw new TypeError('fetch failed (connection reset)');
      const response = await mock.fetch(request);
      if (step === 'commit-and-drop') throw new TypeError('fetch failed (connection reset)');
      return response;
    },
  });
  const before = mock.account().transactions.length;
  return { mock, client, posts: () => posts, made: () => mock.account().transactions.length - before };
}

function outboxOver(client: PaymentsClient, more: Partial<PayoutOutboxOptions> = {}) {
  const store = more.store ?? memoryOutboxStore();
  const outbox = createPayoutOutbox({
    client,
    timeout: 2000,
    visibilityWaits: [0],
    backoff: { baseMs: 0, maxMs: 0 },
    ...more,
    store,
  });
  const settleTimes = async (ref: string, times: number) => {
    const states: string[] = [];
    for (let i = 0; i < times; i++) {
      states.push((await outbox.settle(ref)).state);
      vi.setSystemTime(Date.now() + 60_000);
    }
    return states;
  };
  /** Settles each time the row falls due (the clock moved to it), `times` at most: the states seen. */
  const settleWhenDue = async (ref: string, times: number) => {
    const states: string[] = [];
    for (let i = 0; i < times; i++) {
      const record = await outbox.settle(ref);
      states.push(record.state);
      if (!['pending', 'sending', 'retry'].includes(record.state)) break;
      vi.setSystemTime(record.nextAttemptAt.getTime() + 1);
    }
    return states;
  };
  return { outbox, store, settleTimes, settleWhenDue };
}

/** States seen settling each time the row fell due: `sending` (a doubt waiting to look), then `final`. */
function expectWaitedThen(states: string[], final: string) {
  expect(states.at(-1)).toBe(final);
  expect(states.slice(0, -1).filter((state) => state !== 'sending')).toEqual([]);
}

it('serviceAssignedCurrencies adds to NGN: an NGN payout whose answer was lost is recovered, never sent twice', async () => {
  const { client, posts, made } = scripted(['commit-and-drop'], ['XAF']);
  const { outbox, settleTimes } = outboxOver(client);
  const { reference: ref } = await outbox.enqueue({
    amount: '5000.00',
    currency: 'NGN',
    beneficiary: BENEFICIARY,
    remark: 'Invoice 77',
  });
  expect((await outbox.get(ref))?.matchRemark).toBe('Invoice 77');
  expect(await settleTimes(ref, 4)).toEqual(['recovered', 'recovered', 'recovered', 'recovered']);
  expect([posts(), made()]).toEqual([1, 1]);
});

it('serviceAssignedCurrencies are read trimmed and in any case', async () => {
  const { client } = scripted([], [' xaf ']);
  const { outbox } = outboxOver(client);
  const { reference: ref } = await outbox.enqueue({
    amount: '500',
    currency: 'XAF ',
    beneficiary: BENEFICIARY,
    remark: 'Invoice 5',
  });
  expect((await outbox.get(ref))?.matchRemark).toBe('Invoice 5');
});

for (const remark of ['', ' ', ' Invoice 78 ', 'Invoice 78 ', 'Invoice\n78']) {
  it(`an NGN payout with remark ${JSON.stringify(remark)} is refused at enqueue: the service may trim it, and the payout would go unrecognised`, async () => {
    const { client, posts } = scripted([]);
    const { outbox } = outboxOver(client);
    const error = await outbox
      .enqueue({ amount: '5000.00', currency: 'NGN', beneficiary: BENEFICIARY, remark })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('remark');
    expect(await outbox.list()).toEqual([]);
    expect(posts()).toBe(0);
  });
}

it('a row of a service-assigned currency without a remark to match is never sent again: its absence under the own reference proves nothing', async () => {
  // Enqueued while XAF was not configured (no remark stored), settled after it was: the first POST's answer lost.
  const { client, posts } = scripted(['drop']);
  const first = outboxOver(client);
  const { reference: ref } = await first.outbox.enqueue({
    amount: '500',
    currency: 'XAF',
    beneficiary: BENEFICIARY,
  });
  // The lost answer is a doubt: the row waits for its lookups, it is not sent again.
  expect(await first.settleTimes(ref, 1)).toEqual(['sending']);
  const configured = client.withOptions({ serviceAssignedCurrencies: ['XAF'] });
  const later = outboxOver(configured, { store: first.store, maxLookups: 2 });
  expectWaitedThen(await later.settleWhenDue(ref, 6), 'unknown');
  expect((await later.outbox.get(ref))?.reason).toMatch(/lists XAF payouts under a reference it assigns/);
  expect(await later.settleTimes(ref, 2)).toEqual(['unknown', 'unknown']);
  expect(posts()).toBe(1);
});

const usd = { amount: '25.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'dup-1' };
const refusals = {
  '409 duplicate': () =>
    Response.json({ status: false, message: 'Duplicate externalReference' }, { status: 409 }),
  '400 insufficient balance': () =>
    Response.json({ status: false, message: 'Insufficient balance' }, { status: 400 }),
};

it('lookupBeforeRetry: a 409 after an unanswered POST proven absent is unknown: the service says the reference exists', async () => {
  const { client, posts } = scripted(['drop', refusals['409 duplicate']()]);
  const error = await lookupBeforeRetry(client, usd, {
    visibilityWaits: [0],
    maxAttempts: 2,
    listingLagMs: 0,
  }).catch((e) => e);
  expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
  expect(posts()).toBe(2);
});

it('a 409 duplicate after an unanswered POST proven absent is "unknown": the listing may lag past listingLagMs', async () => {
  // POST 1 leaves and its answer is lost (the listing never shows it); POST 2, after the proof, is refused 409.
  const { client, posts, made } = scripted([
    'drop',
    refusals['409 duplicate'](),
    refusals['409 duplicate'](),
  ]);
  const { outbox, settleTimes, settleWhenDue } = outboxOver(client, { maxLookups: 3 });
  const { reference: ref } = await outbox.enqueue(usd);
  // Within the listing lag the doubt stands: looked up, never sent again.
  expect(await settleTimes(ref, 4)).toEqual(['sending', 'sending', 'sending', 'sending']);
  expect(posts()).toBe(1);
  expectWaitedThen(await settleWhenDue(ref, 4), 'unknown');
  expect(await settleTimes(ref, 2)).toEqual(['unknown', 'unknown']);
  expect((await outbox.get(ref))?.reason).toMatch(/409/);
  expect([posts(), made()]).toEqual([2, 0]);
});

it('a 400 insufficient balance after an unanswered POST proven absent a listing lag later is final: "refused"', async () => {
  // The proof resolved the doubt before POST 2 left: the refusal is that POST's own, and nothing moved.
  const insufficient = refusals['400 insufficient balance'];
  const { client, posts, made } = scripted(['drop', insufficient(), insufficient()]);
  const { outbox, settleTimes, settleWhenDue } = outboxOver(client, { maxLookups: 3 });
  const { reference: ref } = await outbox.enqueue(usd);
  expect(await settleTimes(ref, 4)).toEqual(['sending', 'sending', 'sending', 'sending']);
  expect(posts()).toBe(1);
  expectWaitedThen(await settleWhenDue(ref, 4), 'refused');
  const record = await outbox.get(ref);
  expect(record).toMatchObject({ state: 'refused', sends: 2, answered: 2, accepted: false });
  expect(record?.attempts.some((a) => a.kind === 'lookup' && a.detail === 'absent')).toBe(true);
  expect([posts(), made()]).toEqual([2, 0]);
});

for (const [name, refusal] of Object.entries(refusals)) {
  it(`a ${name} of the first POST is "refused": nothing was sent before`, async () => {
    const { client, posts } = scripted([refusal()]);
    const { outbox, settleTimes } = outboxOver(client);
    const { reference: ref } = await outbox.enqueue(usd);
    expect(await settleTimes(ref, 2)).toEqual(['refused', 'refused']);
    expect(posts()).toBe(1);
  });
}

it('a later POST refused after an unanswered one that did go through ends "recovered" once the listing shows it', async () => {
  const { client, posts, made } = scripted(['commit-and-drop', refusals['409 duplicate']()]);
  const { outbox, settleTimes } = outboxOver(client);
  const { reference: ref } = await outbox.enqueue(usd);
  expect(await settleTimes(ref, 2)).toEqual(['recovered', 'recovered']);
  expect([posts(), made()]).toEqual([1, 1]);
});

it('a 503 is a doubt: no POST until a lookup a listing lag later proves it absent; a refusal then is final', async () => {
  // A gateway can answer 503 after the service committed: the 503 alone never lets a second POST go.
  const busy = () => Response.json({ status: false, message: 'Service unavailable' }, { status: 503 });
  const { client, posts, made } = scripted([busy(), refusals['400 insufficient balance']()]);
  const { outbox, settleTimes, settleWhenDue } = outboxOver(client);
  const { reference: ref } = await outbox.enqueue({ ...usd, externalReference: 'answered-then-refused' });
  const before = Date.now();
  expect(await settleTimes(ref, 3)).toEqual(['sending', 'sending', 'sending']);
  expect((await outbox.get(ref))?.reason).toMatch(/POST 1 answered 503/);
  expect(posts()).toBe(1);
  expectWaitedThen(await settleWhenDue(ref, 3), 'refused');
  expect(Date.now()).toBeGreaterThanOrEqual(before + 300_000);
  expect(await settleTimes(ref, 1)).toEqual(['refused']);
  expect(await outbox.get(ref)).toMatchObject({ accepted: false, answered: 2 });
  expect([posts(), made()]).toEqual([2, 0]);
});
