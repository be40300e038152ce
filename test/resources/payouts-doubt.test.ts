import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AcceptedButUnreadableError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  type PayoutCreateParams,
  PayoutMayHaveMovedError,
  PayoutOutcomeUnknownError,
  PermissionDeniedError,
  RateLimitError,
} from '../../src/index.js';
import {
  BASE,
  fail,
  makeClient,
  PAYOUT_BENEFICIARY,
  payoutInitiated,
  settleError,
  useFakeClock,
  useServer,
} from '../helpers/server.js';

const server = useServer();

const body: PayoutCreateParams = {
  amount: '50.00',
  currency: 'USD',
  beneficiary: PAYOUT_BENEFICIARY,
  remark: 'Invoice 42',
  externalReference: 'inv-42',
};
const RESUME = 'lookupBeforeRetry(client, body, { lookupFirst: true })';

/** The error `create` rejected with, checked to be the doubt every ambiguous answer is. */
function doubt(error: unknown): PayoutMayHaveMovedError {
  expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
  // Old catch-sites of lookupBeforeRetry's unknown outcome catch it too.
  expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
  const e = error as PayoutMayHaveMovedError;
  expect(e.name).toBe('PayoutMayHaveMovedError');
  expect(e.mayHaveMoved).toBe(true);
  expect(e.externalReference).toBe('inv-42');
  expect(e.attempts).toBe(1);
  expect(e.errors).toEqual([e.cause]);
  expect(e.message).toContain('inv-42');
  expect(e.message).toContain(RESUME);
  return e;
}

describe('payouts.create: an answer that is neither a commitment nor a refusal may have moved money', () => {
  it.each([
    [408, APIError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [504, InternalServerError],
  ])('an answered %i is PayoutMayHaveMovedError, its status and cause kept', async (status, Class) => {
    server.use(
      http.post(`${BASE}/payouts`, () =>
        fail(status, 'not now', {}, { 'x-request-id': `req-${status}`, 'retry-after': '3' }),
      ),
    );
    const e = doubt(
      await makeClient()
        .payouts.create(body)
        .catch((x: unknown) => x),
    );
    expect(e.status).toBe(status);
    expect(e.requestId).toBe(`req-${status}`);
    expect(e.cause).toBeInstanceOf(Class);
    expect((e.cause as APIError).status).toBe(status);
    expect(e.message).toContain(`answered ${status}`);
  });

  it('a connection that fails (fetch failed) is PayoutMayHaveMovedError, with no status', async () => {
    server.use(http.post(`${BASE}/payouts`, () => HttpResponse.error()));
    const e = doubt(
      await makeClient()
        .payouts.create(body)
        .catch((x: unknown) => x),
    );
    expect(e.cause).toBeInstanceOf(APIConnectionError);
    expect(e.status).toBeUndefined();
    expect(e.message).toMatch(/no answer/);
  });

  it('a timeout is PayoutMayHaveMovedError', async () => {
    useFakeClock();
    const fetch: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true });
      });
    const e = doubt(await settleError(makeClient({ fetch, timeout: 1_000 }).payouts.create(body)));
    expect(e.cause).toBeInstanceOf(APITimeoutError);
    expect(e.message).toMatch(/timed out/);
  });

  it('a 2xx whose body was cut is PayoutMayHaveMovedError, the AcceptedButUnreadableError its cause', async () => {
    const fetch: typeof globalThis.fetch = async () => {
      const cut = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"status":true,"data":{"id":'));
          controller.error(new TypeError('terminated'));
        },
      });
      return new Response(cut, { status: 201, headers: { 'content-type': 'application/json' } });
    };
    const e = doubt(
      await makeClient({ fetch })
        .payouts.create(body)
        .catch((x: unknown) => x),
    );
    expect(e.cause).toBeInstanceOf(AcceptedButUnreadableError);
    expect(e.status).toBe(201);
  });

  it("the caller's abort after the POST left is PayoutMayHaveMovedError; an abort before sends nothing", async () => {
    const controller = new AbortController();
    let posts = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      posts++;
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      queueMicrotask(() => controller.abort());
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    };
    const client = makeClient({ fetch });
    const e = doubt(
      await client.payouts.create(body, { signal: controller.signal }).catch((x: unknown) => x),
    );
    expect(e.cause).toBeInstanceOf(APIUserAbortError);
    expect(posts).toBe(1);

    const before = await client.payouts
      .create(body, { signal: AbortSignal.abort() })
      .catch((x: unknown) => x);
    expect(before).toBeInstanceOf(APIUserAbortError);
    expect(posts).toBe(1);
  });

  it('a payout sent without a reference says it cannot be resumed by one', async () => {
    server.use(http.post(`${BASE}/payouts`, () => fail(503, 'busy')));
    const { externalReference: _, ...unreferenced } = body;
    const error = await makeClient()
      .payouts.create(unreferenced as PayoutCreateParams)
      .catch((x: unknown) => x);
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    const e = error as PayoutMayHaveMovedError;
    expect(e.externalReference).toBe('');
    expect(e.message).toMatch(/without an externalReference/);
    expect(e.message).toMatch(/createExternalReference/);
  });

  it('a currency whose references the service assigns is resumed with a match', async () => {
    server.use(http.post(`${BASE}/payouts`, () => fail(502, 'bad gateway')));
    const error = await makeClient()
      .payouts.create({ ...body, currency: 'NGN' as string })
      .catch((x: unknown) => x);
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as Error).message).toMatch(/lookupFirst: true, match: remarkMatch\(/);
  });

  it.each([
    [400, BadRequestError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, APIError],
  ])('a refusal (%i) is thrown as the APIError it is: nothing moved', async (status, Class) => {
    server.use(http.post(`${BASE}/payouts`, () => fail(status, 'no')));
    const error = await makeClient()
      .payouts.create(body)
      .catch((x: unknown) => x);
    expect(error).toBeInstanceOf(Class);
    expect(error).not.toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as APIError).status).toBe(status);
  });

  it('a 200 with a legacy status false body is a refusal', async () => {
    server.use(
      http.post(`${BASE}/payouts`, () =>
        HttpResponse.json({ status: false, message: 'Insufficient balance' }),
      ),
    );
    const error = await makeClient()
      .payouts.create(body)
      .catch((x: unknown) => x);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(PayoutOutcomeUnknownError);
  });

  it('a readable 2xx is the payout; .withResponse() still carries the answer', async () => {
    server.use(
      http.post(`${BASE}/payouts`, () =>
        HttpResponse.json(
          payoutInitiated({
            destination_amount: 5000,
            fee_amount: 50,
            remark: 'Invoice 42',
            external_reference: 'inv-42',
            beneficiary: { bank_code: '000014' },
          }),
          { headers: { 'x-request-id': 'req-ok' } },
        ),
      ),
    );
    const { data, response } = await makeClient().payouts.create(body).withResponse();
    expect(data.destination_amount).toBe(5000);
    expect(response.requestId).toBe('req-ok');
  });
});
