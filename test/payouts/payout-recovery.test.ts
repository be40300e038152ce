import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIUserAbortError,
  BadRequestError,
  type PayoutCreateParams,
  PayoutOutcomeUnknownError,
  RequestValidationError,
} from '../../src/index.js';
import { findByReference, lookupBeforeRetry, type PayoutAttemptEvent } from '../../src/payouts/index.js';
import {
  BASE,
  fail,
  listingAnswer,
  makeClient,
  PAYOUT_BENEFICIARY,
  payoutInitiated,
  settle,
  transaction,
  useFakeClock,
  useServer,
} from '../helpers/server.js';

const server = useServer();
const body: PayoutCreateParams & { externalReference: string } = {
  amount: '5000.00',
  currency: 'USD',
  beneficiary: PAYOUT_BENEFICIARY,
  externalReference: 'inv-77',
};

type Fault = 'none' | 'drop-after-commit' | 'error-before-commit' | 'bad-request' | 'timeout-after-commit';

/** A tiny stateful payout service: stores payouts by reference and lists them after `lagMs`. */
function payoutService(faults: Fault[], options: { lagMs?: number; dedupe?: boolean } = {}) {
  const payouts: { ref: string; at: number; n: number }[] = [];
  let posts = 0;
  const listed: string[] = [];
  server.use(
    http.post(`${BASE}/payouts`, async ({ request }) => {
      const fault = faults[posts++] ?? 'none';
      const { externalReference: ref } = (await request.json()) as { externalReference: string };
      if (fault === 'error-before-commit') return fail(503, 'Service unavailable');
      if (fault === 'bad-request') return fail(400, 'Insufficient balance');
      const existing = payouts.find((p) => p.ref === ref);
      const record =
        existing && options.dedupe !== false ? existing : { ref, at: Date.now(), n: payouts.length + 1 };
      if (record !== existing) payouts.push(record);
      if (fault === 'drop-after-commit') return HttpResponse.error();
      if (fault === 'timeout-after-commit') return new Promise<Response>(() => {});
      return HttpResponse.json(
        payoutInitiated({
          id: `p${record.n}`,
          external_reference: ref,
          fee_amount: 100,
          destination_amount: 500000,
          created_at: new Date(record.at).toISOString(),
        }),
      );
    }),
    http.get(`${BASE}/transactions`, ({ request }) => {
      const status = new URL(request.url).searchParams.get('status');
      listed.push(status ?? 'default');
      const visible = payouts
        .filter((p) => Date.now() - p.at >= (options.lagMs ?? 0))
        .map((p) =>
          transaction(p.n, {
            external_reference: p.ref,
            status: 'processing',
            // Listed as it was sent (5000.00 USD): a row under the reference with other details is a doubt.
            destination_amount: 500000,
            destination_currency: 'USD',
            source_amount: 500100,
            source_currency: 'USD',
            created_at: new Date(p.at).toISOString(),
          }),
        );
      return listingAnswer(request, visible);
    }),
  );
  return { payouts, listed, posts: () => posts };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe('payouts.lookupBeforeRetry', () => {
  it('returns created when the first POST succeeds', async () => {
    const service = payoutService(['none']);
    const outcome = await settle(lookupBeforeRetry(makeClient(), body));
    expect(outcome).toMatchObject({
      ok: true,
      value: { status: 'created', attempts: 1, externalReference: 'inv-77' },
    });
    expect(service.payouts).toHaveLength(1);
  });

  it('commit then connection drop: finds the payout instead of paying twice', async () => {
    const service = payoutService(['drop-after-commit']);
    const events: PayoutAttemptEvent['type'][] = [];
    const references = new Set<string>();
    const outcome = await settle(
      lookupBeforeRetry(makeClient(), body, {
        onAttempt: (e) => events.push(e.type) && references.add(e.externalReference),
      }),
    );
    expect(outcome).toMatchObject({ ok: true, value: { status: 'recovered', attempts: 1 } });
    expect(
      outcome.ok && outcome.value.status === 'recovered' && outcome.value.transaction.external_reference,
    ).toBe('inv-77');
    expect(service.payouts).toHaveLength(1);
    expect(service.posts()).toBe(1);
    expect(events).toEqual(['post', 'ambiguous', 'lookup', 'recovered']);
    expect([...references]).toEqual(['inv-77']);
  });

  it('timeout after commit on a server that does not deduplicate: still one payout', async () => {
    const service = payoutService(['timeout-after-commit'], { dedupe: false });
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, { timeout: 5000 }));
    expect(outcome).toMatchObject({ ok: true, value: { status: 'recovered' } });
    expect(service.payouts).toHaveLength(1);
  });

  it('503 before commit: a doubt; the lookup after the listing lag finds nothing, the second POST creates it', async () => {
    const service = payoutService(['error-before-commit', 'none']);
    const outcome = await settle(
      lookupBeforeRetry(makeClient(), body, { visibilityWaits: [100, 200], listingLagMs: 300 }),
    );
    expect(outcome).toMatchObject({ ok: true, value: { status: 'created', attempts: 2 } });
    expect(service.payouts).toHaveLength(1);
    // The failed listing, the default one and the failed one again were searched after each wait.
    expect(service.listed).toEqual(['failed', 'default', 'failed', 'failed', 'default', 'failed']);
  });

  it('a payout that shows in the listing only after a delay is found by a later lookup', async () => {
    const service = payoutService(['drop-after-commit'], { lagMs: 3000, dedupe: false });
    const waits: number[] = [];
    const outcome = await settle(
      lookupBeforeRetry(makeClient(), body, {
        visibilityWaits: [1000, 4000],
        onAttempt: (e) => e.type === 'lookup' && waits.push(e.waitedMs),
      }),
    );
    expect(outcome).toMatchObject({ ok: true, value: { status: 'recovered', attempts: 1 } });
    expect(waits).toEqual([1000, 5000]);
    expect(service.payouts).toHaveLength(1);
  });

  it('a 400 is definite: thrown at once, no lookup, no retry', async () => {
    const service = payoutService(['bad-request']);
    const outcome = await settle(lookupBeforeRetry(makeClient(), body));
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toBeInstanceOf(BadRequestError);
    expect(service.posts()).toBe(1);
    expect(service.listed).toEqual([]);
  });

  it('attempts exhausted, each proven absent: not_sent with the last error and what happened, nothing stored', async () => {
    const service = payoutService(['error-before-commit', 'error-before-commit', 'error-before-commit']);
    const outcome = await settle(
      lookupBeforeRetry(makeClient(), body, { maxAttempts: 3, visibilityWaits: [10] }),
    );
    if (!outcome.ok) throw outcome.error;
    expect(outcome.value).toMatchObject({ status: 'not_sent', externalReference: 'inv-77', attempts: 3 });
    const notSent = outcome.value as Extract<typeof outcome.value, { status: 'not_sent' }>;
    expect(notSent.error).toMatchObject({ status: 503 });
    expect(notSent.retryAfterMs).toBeUndefined();
    expect(notSent.reason).toBe(
      '3 POSTs answered 503 Service Unavailable; the listings read to their end without the payout; 3 send(s) spent',
    );
    expect(service.payouts).toHaveLength(0);
    expect(service.posts()).toBe(3);
  });

  it('does not POST again when the lookups themselves fail', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/payouts`, () => {
        posts++;
        return HttpResponse.error();
      }),
      http.get(`${BASE}/transactions`, () => fail(500, 'listing down')),
    );
    const outcome = await settle(
      lookupBeforeRetry(makeClient({ maxRetries: 0 }), body, { visibilityWaits: [10, 10] }),
    );
    expect(!outcome.ok && outcome.error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(posts).toBe(1);
  });

  it('uses a caller-supplied find instead of the listing', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/payouts`, () => {
        posts++;
        return HttpResponse.error();
      }),
    );
    const found = transaction(9, { external_reference: 'inv-77' });
    const find = vi.fn(async () => found);
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, { find, visibilityWaits: [5] }));
    expect(outcome).toMatchObject({ ok: true, value: { status: 'recovered', transaction: found } });
    expect(find).toHaveBeenCalledWith(expect.objectContaining({ externalReference: 'inv-77' }));
    expect(posts).toBe(1);
  });

  it('requires the caller to persist an externalReference first', async () => {
    const { externalReference: _, ...noRef } = body;
    const outcome = await settle(lookupBeforeRetry(makeClient(), noRef as any));
    expect(!outcome.ok && outcome.error).toBeInstanceOf(RequestValidationError);
    expect(!outcome.ok && (outcome.error as RequestValidationError).field).toBe('externalReference');
  });
});

describe('payouts.lookupBeforeRetry: when it must stop rather than send again', () => {
  const emptyListing = ({ request }: { request: Request }) => listingAnswer(request, []);

  async function unknownFrom(promise: Promise<unknown>) {
    const outcome = await settle(promise);
    expect(outcome.ok).toBe(false);
    const error = !outcome.ok ? outcome.error : undefined;
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    return error as PayoutOutcomeUnknownError;
  }

  it('a 409 of a later attempt does not mean nothing moved: a payout under the reference exists', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/payouts`, () =>
        ++posts === 1 ? HttpResponse.error() : fail(409, 'Duplicate externalReference'),
      ),
      http.get(`${BASE}/transactions`, emptyListing),
    );
    const error = await unknownFrom(lookupBeforeRetry(makeClient(), body, { visibilityWaits: [5] }));
    expect(error.reason).toMatch(
      /^POST 2 was refused \(409 Duplicate externalReference\) after an earlier send was proven absent: the listing may lag past listingLagMs, and the payout was not found$/,
    );
    expect(error.cause).toMatchObject({ status: 409 });
    expect(posts).toBe(2);
  });

  it('an abort after the POST was sent is an unknown outcome, not a clean abort', async () => {
    const controller = new AbortController();
    server.use(
      http.post(`${BASE}/payouts`, async () => {
        controller.abort();
        return new Promise<Response>(() => {});
      }),
    );
    const error = await unknownFrom(lookupBeforeRetry(makeClient(), body, { signal: controller.signal }));
    expect(error.reason).toMatch(/aborted after the payout was sent/);
  });

  it('an already-aborted signal sends nothing', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/payouts`, () => {
        posts++;
        return HttpResponse.error();
      }),
    );
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, { signal: AbortSignal.abort() }));
    expect(!outcome.ok && outcome.error).toBeInstanceOf(APIUserAbortError);
    expect(posts).toBe(0);
  });

  it('a listing longer than maxLookupPages is not proof of absence', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/payouts`, () => {
        posts++;
        return HttpResponse.error();
      }),
      // 250 other payouts in the minutes after this one: more than 2 queries of 100 rows.
      http.get(`${BASE}/transactions`, ({ request }) => {
        const rows = Array.from({ length: 250 }, (_, i) =>
          transaction(i, { created_at: new Date(Date.now() - i * 100).toISOString() }),
        );
        return listingAnswer(request, rows);
      }),
    );
    const error = await unknownFrom(
      lookupBeforeRetry(makeClient(), body, { visibilityWaits: [5], maxLookupPages: 2 }),
    );
    expect(error.reason).toMatch(
      /the lookup was incomplete \(default listing: maxLookupPages \(2\) reached before /,
    );
    expect(posts).toBe(1);
  });

  it('rows in the older listing form carry no reference, so they are not proof of absence', async () => {
    server.use(
      http.post(`${BASE}/payouts`, () => HttpResponse.error()),
      http.get(`${BASE}/transactions`, () =>
        HttpResponse.json({
          status: true,
          message: 'OK',
          data: { data: [{ type: 'withdrawal', amount: 1 }] },
        }),
      ),
    );
    await unknownFrom(lookupBeforeRetry(makeClient(), body, { visibilityWaits: [5] }));
  });

  it('a 2xx that cannot be read means the payout exists: never sent again', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/payouts`, () => {
        posts++;
        return HttpResponse.json({ status: true, message: 'ok', data: { id: 'p1', fee_amount: '1.00' } });
      }),
      http.get(`${BASE}/transactions`, emptyListing),
    );
    const error = await unknownFrom(lookupBeforeRetry(makeClient(), body, { visibilityWaits: [5] }));
    expect(error.reason).toMatch(/accepted the payout \(2xx\)/);
    expect(posts).toBe(1);
  });

  it('a legacy status:false at HTTP 200 is a refusal: thrown at once, no lookup', async () => {
    let lookups = 0;
    server.use(
      http.post(`${BASE}/payouts`, () =>
        HttpResponse.json({ status: false, message: 'Insufficient balance' }),
      ),
      http.get(`${BASE}/transactions`, ({ request }) => {
        lookups++;
        return emptyListing({ request });
      }),
    );
    const outcome = await settle(lookupBeforeRetry(makeClient(), body));
    expect(!outcome.ok && (outcome.error as Error).message).toContain('Insufficient balance');
    expect(!outcome.ok && outcome.error).not.toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(lookups).toBe(0);
  });

  it('NGN: absent from the listing is not proof enough to send again, unless match or find is given', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/payouts`, () => {
        posts++;
        return posts === 1
          ? fail(503, 'busy')
          : HttpResponse.json({ status: true, message: 'ok', data: payoutData() });
      }),
      http.get(`${BASE}/transactions`, emptyListing),
    );
    const ngn = { ...body, currency: 'NGN' };
    const error = await unknownFrom(lookupBeforeRetry(makeClient(), ngn, { visibilityWaits: [5] }));
    expect(error.reason).toMatch(/lists NGN payouts under a reference it assigns/);
    expect(posts).toBe(1);
    const match = (tx: { external_reference?: string }, ref: string) => tx.external_reference === ref;
    posts = 0;
    const outcome = await settle(lookupBeforeRetry(makeClient(), ngn, { visibilityWaits: [5], match }));
    expect(outcome).toMatchObject({ ok: true, value: { status: 'created', attempts: 2 } });
  });

  it.each([
    [{ maxAttempts: 0 }, 'maxAttempts'],
    [{ maxAttempts: Number.NaN }, 'maxAttempts'],
    [{ visibilityWaits: [] }, 'visibilityWaits'],
    [{ visibilityWaits: [10, -1] }, 'visibilityWaits'],
    [{ visibilityWaits: [Number.POSITIVE_INFINITY] }, 'visibilityWaits'],
    // biome-ignore lint/suspicious/noSparseArray: a hole would otherwise become a wait of no length.
    [{ visibilityWaits: [, 1000] }, 'visibilityWaits'],
  ])('refuses %o before sending', async (options, field) => {
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, options as never));
    expect(!outcome.ok && (outcome.error as RequestValidationError).field).toBe(field);
  });

  it('takes null for maxAttempts, totalTimeout and visibilityWaits as their defaults, and sends once', async () => {
    const service = payoutService(['none']);
    const options = { maxAttempts: null, totalTimeout: null, visibilityWaits: null } as never;
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, options));
    expect(outcome).toMatchObject({ ok: true, value: { status: 'created', attempts: 1 } });
    expect(service.posts()).toBe(1);
  });

  it.each([
    [{ since: null }, 'since'],
    [{ maxLookupPages: null }, 'maxLookupPages'],
    [{ match: null }, 'match'],
  ])('refuses %o (no default applies to null) before sending', async (options, field) => {
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, options as never));
    expect(!outcome.ok && (outcome.error as RequestValidationError).field).toBe(field);
  });

  it('names every bad option in one error, before sending', async () => {
    const options = {
      maxAttempts: 0,
      totalTimeout: -1,
      visibilityWaits: [],
      maxLookupPages: 1.5,
      match: 'x',
    };
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, options as never));
    const fields =
      !outcome.ok && (outcome.error as RequestValidationError).issues.map((i) => i.path.join('.'));
    expect(fields).toEqual(['maxLookupPages', 'match', 'maxAttempts', 'totalTimeout', 'visibilityWaits']);
  });

  it.each([
    [{ since: null }, 'since'],
    [{ since: new Date(Number.NaN) }, 'since'],
    [{ maxLookupPages: null }, 'maxLookupPages'],
    [{ maxLookupPages: 0 }, 'maxLookupPages'],
    [{ match: null }, 'match'],
  ])('findByReference refuses %o before sending', async (options, field) => {
    const outcome = await settle(findByReference(makeClient(), 'inv-77', options as never));
    expect(!outcome.ok && (outcome.error as RequestValidationError).field).toBe(field);
  });
});

describe("payouts.lookupBeforeRetry: the caller's callbacks", () => {
  it.each([
    [{ onAttempt: 'log' }, 'onAttempt'],
    [{ find: {} }, 'find'],
    [{ lookupFirst: 'yes' }, 'lookupFirst'],
  ])('refuses %o before anything is sent', async (options, field) => {
    const service = payoutService(['none']);
    const outcome = await settle(lookupBeforeRetry(makeClient(), body, options as never));
    expect(!outcome.ok && (outcome.error as RequestValidationError).field).toBe(field);
    expect(service.posts()).toBe(0);
  });

  it('returns the outcome when onAttempt throws (the money moved), and logs the throw as a warning', async () => {
    const service = payoutService(['none']);
    const warnings: string[] = [];
    const client = makeClient({
      logLevel: 'warn',
      logger: { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} },
    });
    const onAttempt = () => {
      throw new Error('log sink down');
    };
    const outcome = await settle(lookupBeforeRetry(client, body, { onAttempt }));
    expect(outcome).toMatchObject({ ok: true, value: { status: 'created', attempts: 1 } });
    expect(service.posts()).toBe(1);
    expect(warnings.join('\n')).toContain('onAttempt threw (ignored): log sink down');
  });
});

function payoutData() {
  return {
    id: 'p2',
    external_reference: 'inv-77',
    fee_amount: 100,
    destination_amount: 500000,
    amount: 500100,
    created_at: '2026-11-22T10:00:00Z',
    beneficiary: {},
  };
}
