/**
 * Payout safety against the stateful mock through `mock.fetch` (every POST counted), plus the same cut body over
 * a real socket: a 2xx is a commitment, a lookup is complete only at the declared end of every listing, a crash
 * can be resumed, the reference goes out byte for byte, and every outcome is one of a discriminated union.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  AcceptedButUnreadableError,
  APIConnectionError,
  PaymentsClient,
  type Payout,
  PayoutLookupIncompleteError,
  PayoutMayHaveMovedError,
  PayoutOutcomeUnknownError,
  RequestValidationError,
  type Transaction,
} from '../../src/index.js';
import { findByReference, lookupBeforeRetry, type PayoutOutcome } from '../../src/payouts/index.js';
import {
  createPaymentsMock,
  DEFAULT_API_KEY,
  FIXED_HISTORY_END,
  type PaymentsMock,
  startMockServer,
} from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { newerWithdrawals } from '../helpers/listings.js';

// The seeded history ends long before these payouts, so the counts below are of the rows each test adds.
const mock = createPaymentsMock({ dedupeByReference: false, historyEnd: FIXED_HISTORY_END });
afterEach(() => mock.reset());

/** A client on the mock that counts what reaches it, by method and path. */
function counted(target: PaymentsMock = mock) {
  const seen: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: target.baseUrl,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      seen.push(`${request.method} ${new URL(request.url).pathname.replace(/^.*\/external/, '')}`);
      return target.fetch(request);
    },
  });
  return { client, posts: () => seen.filter((s) => s === 'POST /payouts').length, seen };
}

const usd = (externalReference: string) => ({
  amount: '250.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});
const stored = (ref: string, target: PaymentsMock = mock) =>
  target.account().transactions.filter((t) => t.row.external_reference === ref);
// Not about the listing lag: a proof counts as soon as it is read.
const FAST = { visibilityWaits: [0, 0], listingLagMs: 0 };

const fillListing = (n: number) => newerWithdrawals(mock, n);

/** `create`'s error after a 2xx it could not read: a doubt, whose cause says the service accepted the POST. */
function acceptedCause(error: unknown): AcceptedButUnreadableError {
  expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
  const { cause } = error as PayoutMayHaveMovedError;
  expect(cause).toBeInstanceOf(AcceptedButUnreadableError);
  return cause as AcceptedButUnreadableError;
}

describe('a 2xx is a commitment', () => {
  it('a cut body after 200 is a doubt caused by AcceptedButUnreadableError carrying the status, not a connection error', async () => {
    const { client, posts } = counted();
    mock.faults.bodyFault('cut');
    const error = await rejection(client.payouts.create(usd('cut-1')));
    const cause = acceptedCause(error);
    expect(cause).not.toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ status: 200 });
    expect(cause).toMatchObject({ status: 200 });
    expect(cause.message).toMatch(/POST \/payouts was accepted \(HTTP 200\)/);
    expect((error as Error).message).toMatch(/was accepted \(HTTP 200\)/);
    expect(posts()).toBe(1);
  });

  it('a body that stalls after 200 is the same doubt, at the timeout', async () => {
    const { client } = counted();
    mock.faults.bodyFault('stall');
    const error = await rejection(client.payouts.create(usd('stall-1'), { timeout: 50 }));
    expect(acceptedCause(error).message).toMatch(/within the timeout/);
  });

  it('lookupBeforeRetry then finds it and never POSTs again', async () => {
    for (const kind of ['cut', 'stall'] as const) {
      const { client, posts } = counted();
      mock.faults.bodyFault(kind);
      const outcome = await lookupBeforeRetry(client, usd(`commit-${kind}`), { ...FAST, timeout: 50 });
      expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });
      expect(posts()).toBe(1);
      expect(stored(`commit-${kind}`)).toHaveLength(1);
      mock.reset();
    }
  });

  it('and if it cannot find it, the unknown outcome says the service accepted it', async () => {
    const { client, posts } = counted();
    mock.faults.bodyFault('cut').listingLag(60_000);
    const error = await rejection(lookupBeforeRetry(client, usd('commit-lag'), FAST));
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(/accepted the payout/);
    expect(posts()).toBe(1);
  });

  it('over a real socket: the status line arrived, the body was cut', async () => {
    const server = await startMockServer({ dedupeByReference: false });
    try {
      server.mock.faults.bodyFault('cut');
      const client = new PaymentsClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl: server.baseUrl,
        logLevel: 'off',
      });
      const error = await rejection(client.payouts.create(usd('socket-cut')));
      acceptedCause(error);
      expect(stored('socket-cut', server.mock)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('an abort after the 2xx is a doubt caused by AcceptedButUnreadableError: the caller learns the service acted on it', async () => {
    const controller = new AbortController();
    const client = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: mock.baseUrl,
      logLevel: 'off',
      // The caller gives up once the 2xx status line is back and the (stalled) body is still to come.
      fetch: async (input, init) => {
        const response = await mock.fetch(new Request(input, init));
        controller.abort();
        return response;
      },
    });
    mock.faults.bodyFault('stall');
    const error = await rejection(client.payouts.create(usd('abort-1'), { signal: controller.signal }));
    expect(acceptedCause(error).message).toMatch(/the caller aborted/);
  });
});

describe('a lookup is complete only at the declared end of every listing', () => {
  it('a query that continues the walk comes back empty where its counters promise rows: unknown, no second POST', async () => {
    fillListing(250);
    const { client, posts } = counted();
    // The payout is stored and its connection dropped; 250 newer rows put it three queries down, and every
    // query that continues the walk answers no rows though its totalCount says there are some.
    mock.faults.dropAfterCommit('POST /payouts').pageFault('empty', 'GET /transactions', 100);
    const error = await rejection(lookupBeforeRetry(client, usd('glitch-empty'), FAST));
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(
      /a page held 0 rows where the listing's counters promise \d+/,
    );
    expect(posts()).toBe(1);
    expect(stored('glitch-empty')).toHaveLength(1);
  });

  it('a cache that ignores the query answers the same rows again: unknown, no second POST', async () => {
    fillListing(250);
    const { client, posts } = counted();
    mock.faults.dropAfterCommit('POST /payouts').pageFault('repeat', 'GET /transactions', 100);
    const error = await rejection(lookupBeforeRetry(client, usd('glitch-repeat'), FAST));
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(
      /outside the dates asked for|cannot advance|not newest first/,
    );
    expect(posts()).toBe(1);
    expect(stored('glitch-repeat')).toHaveLength(1);
  });

  it('the payout on page 3 of 3 is found when every page arrives', async () => {
    fillListing(250);
    const { client, posts } = counted();
    await client.payouts.create(usd('deep-1'));
    const found = await findByReference(client, 'deep-1');
    expect(found?.external_reference).toBe('deep-1');
    expect(posts()).toBe(1);
  });
});

describe('findByReference and lookupFirst: resuming after a crash', () => {
  it('findByReference: the transaction, null on proof of absence, or PayoutLookupIncompleteError', async () => {
    const { client } = counted();
    await client.payouts.create(usd('ledger-1'));
    expect((await findByReference(client, 'ledger-1'))?.external_reference).toBe('ledger-1');
    expect(await findByReference(client, 'never-sent')).toBeNull();
    fillListing(250);
    const error = await rejection(findByReference(client, 'never-sent', { maxLookupPages: 1 }));
    expect(error).toBeInstanceOf(PayoutLookupIncompleteError);
    expect(error).toMatchObject({ externalReference: 'never-sent' });
    expect((error as PayoutLookupIncompleteError).reason).toMatch(/maxLookupPages \(1\) reached/);
    mock.faults.next({ match: 'GET /transactions', status: 503, times: 10 });
    const down = await rejection(findByReference(client, 'never-sent', { since: new Date() }));
    expect(down).toBeInstanceOf(PayoutLookupIncompleteError);
    expect((down as Error).cause).toBeDefined();
  });

  it('lookupFirst: a payout the crashed process sent is recovered with no POST', async () => {
    const before = counted();
    await before.client.payouts.create(usd('crash-1')); // the process dies right after this
    const after = counted();
    const outcome = await lookupBeforeRetry(after.client, usd('crash-1'), {
      ...FAST,
      lookupFirst: true,
    });
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 0 });
    expect(after.posts()).toBe(0);
    expect(stored('crash-1')).toHaveLength(1);
  });

  it('lookupFirst: a payout never sent is sent once, after the lookups prove it absent', async () => {
    const { client, posts, seen } = counted();
    const outcome = await lookupBeforeRetry(client, usd('crash-2'), { ...FAST, lookupFirst: true });
    expect(outcome).toMatchObject({ status: 'created', attempts: 1 });
    expect(posts()).toBe(1);
    expect(seen.indexOf('POST /payouts')).toBeGreaterThan(seen.indexOf('GET /transactions'));
  });

  it('lookupFirst: an incomplete lookup or an NGN payout without match sends nothing', async () => {
    const { client, posts } = counted();
    fillListing(250);
    const incomplete = await rejection(
      lookupBeforeRetry(client, usd('crash-3'), { ...FAST, lookupFirst: true, maxLookupPages: 1 }),
    );
    expect(incomplete).toBeInstanceOf(PayoutOutcomeUnknownError);
    const ngn = await rejection(
      lookupBeforeRetry(
        client,
        { ...usd('crash-4'), amount: '1000.00', currency: 'NGN' },
        {
          ...FAST,
          lookupFirst: true,
          maxLookupPages: 10,
        },
      ),
    );
    expect(ngn).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((ngn as PayoutOutcomeUnknownError).reason).toMatch(
      /lists NGN payouts under a reference it assigns/,
    );
    expect(posts()).toBe(0);
  });
});

describe('the reference goes out byte for byte', () => {
  it('white space at either end, control characters or an empty reference are refused, not trimmed', async () => {
    const { client, seen } = counted();
    for (const ref of [' inv-42 ', 'inv-42 ', '\tinv-42', 'inv\n42', 'inv\u000042', '']) {
      const error = await rejection(client.payouts.create(usd(ref)));
      expect(error, JSON.stringify(ref)).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('externalReference');
      await expect(lookupBeforeRetry(client, usd(ref), FAST)).rejects.toBeInstanceOf(RequestValidationError);
      await expect(findByReference(client, ref)).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(seen).toEqual([]);
    // Anything else is sent and stored exactly as given.
    await client.payouts.create(usd('inv 42/ü'));
    expect(stored('inv 42/ü')).toHaveLength(1);
  });
});

describe('nothing sent, nothing ambiguous', () => {
  it('headers fetch owns are refused before sending; lookupBeforeRetry throws that at once', async () => {
    const { client, seen } = counted();
    for (const name of ['Expect', 'Upgrade', 'Transfer-Encoding', 'Content-Length', 'Connection', 'Host']) {
      const headers = { [name]: name === 'Content-Length' ? '10' : 'x' };
      const error = await rejection(lookupBeforeRetry(client, usd(`hdr-${name}`), { ...FAST, headers }));
      expect(error, name).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(`headers.${name}`);
    }
    expect(seen).toEqual([]);
  });

  it('a body JSON cannot hold is refused before sending', async () => {
    const { client, seen } = counted();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const body of [{ n: 10n }, cycle]) {
      const error = await rejection(client.request({ method: 'POST', path: '/payouts', body }));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('body');
    }
    expect(seen).toEqual([]);
  });
});

describe('PayoutOutcome is a discriminated union', () => {
  it('narrowing on status gives the payout or the transaction, never possibly undefined', async () => {
    const { client } = counted();
    const outcome: PayoutOutcome = await lookupBeforeRetry(client, usd('union-1'), FAST);
    if (outcome.status === 'created') {
      expectTypeOf(outcome.payout).toEqualTypeOf<Payout>();
      expect(outcome.payout.external_reference).toBe('union-1');
    } else if (outcome.status === 'recovered') {
      expectTypeOf(outcome.transaction).toEqualTypeOf<Transaction>();
      throw new Error('expected created');
    } else {
      expectTypeOf(outcome.error).toEqualTypeOf<unknown>();
      expectTypeOf(outcome.reason).toEqualTypeOf<string>();
      throw new Error('expected created');
    }
    expectTypeOf<Extract<PayoutOutcome, { status: 'created' }>>().not.toHaveProperty('transaction');
  });
});
