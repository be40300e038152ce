import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  isBeneficiaryNotFound,
} from '../../src/index.js';
import { BASE, fail, makeClient, settle, settleError, useFakeClock, useServer } from '../helpers/server.js';

// Spec, DELETE /beneficiaries/{beneficiaryId}: "Permanent. 200: message `Beneficiary deleted successfully`,
// `data` is an empty object. An unknown id, or one of another business, returns 400 `Beneficiary not found:
// <beneficiary_id>`." A delete that met a retryable failure may have gone through, so it is sent again, and a
// "not found" that answers the repeat means it is gone.

const server = useServer();
const ID = '7d0c8c3e-3c6b-4f5e-9a1d-2b3c4d5e6f70';
const URL_ = `${BASE}/beneficiaries/${ID}`;

const deleted = () =>
  HttpResponse.json({ status: 200, message: 'Beneficiary deleted successfully', success: true, data: {} });
const notFound = () => fail(400, `Beneficiary not found: ${ID}`);

/** Answers each DELETE with the next response (the last one repeats); records when each arrived. */
function answers(...responses: Array<() => Response>) {
  const calls: { method: string; at: number }[] = [];
  server.use(
    http.all(URL_, ({ request }) => {
      calls.push({ method: request.method, at: Date.now() });
      return responses[Math.min(calls.length - 1, responses.length - 1)]!();
    }),
  );
  return calls;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('beneficiaries.delete after a retryable failure', () => {
  it('503 then 200: sent again, resolves; two DELETEs on the wire', async () => {
    useFakeClock();
    const calls = answers(() => fail(503, 'Service unavailable'), deleted);
    expect(await settle(makeClient().beneficiaries.delete(ID))).toEqual({ ok: true, value: undefined });
    expect(calls.map((c) => c.method)).toEqual(['DELETE', 'DELETE']);
  });

  it.each([502, 504, 408])('%i then 400 not found: the delete is done', async (status) => {
    useFakeClock();
    const calls = answers(() => fail(status, 'transient'), notFound);
    expect(await settle(makeClient().beneficiaries.delete(ID))).toEqual({ ok: true, value: undefined });
    expect(calls).toHaveLength(2);
  });

  it('429 then 400 not found throws: a rate-limited DELETE was refused, so the id was never there', async () => {
    useFakeClock();
    const calls = answers(() => fail(429, 'Too many requests'), notFound);
    const outcome = await settle(makeClient().beneficiaries.delete(ID));
    expect(outcome.ok).toBe(false);
    expect(isBeneficiaryNotFound((outcome as { error: unknown }).error)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('a "not found" naming another id is not taken as this delete done', async () => {
    useFakeClock();
    const other = '11111111-2222-4333-8444-555555555555';
    answers(
      () => fail(503, 'busy'),
      () => fail(400, `Beneficiary not found: ${other}`),
    );
    const outcome = await settle(makeClient().beneficiaries.delete(ID));
    expect(outcome.ok).toBe(false);
  });

  it('a dropped connection then 400 not found: resolves (the first DELETE went through)', async () => {
    useFakeClock();
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      const request = input as Request;
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      if (seen.length === 1) throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      return notFound();
    };
    const outcome = await settle(makeClient({ fetch }).beneficiaries.delete(ID));
    expect(outcome).toEqual({ ok: true, value: undefined });
    expect(seen).toEqual([
      `DELETE /api/v1/external/beneficiaries/${ID}`,
      `DELETE /api/v1/external/beneficiaries/${ID}`,
    ]);
  });

  it('a 200 whose body was cut, then 400 not found: resolves (the first DELETE was carried out)', async () => {
    useFakeClock();
    let attempts = 0;
    const fetch: typeof globalThis.fetch = async () => {
      attempts++;
      if (attempts > 1) return notFound();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"status":200,'));
          controller.error(new TypeError('terminated'));
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const outcome = await settle(makeClient({ fetch }).beneficiaries.delete(ID));
    expect(outcome).toEqual({ ok: true, value: undefined });
    expect(attempts).toBe(2);
  });

  it('a timed-out first attempt is sent again', async () => {
    useFakeClock();
    let attempts = 0;
    const fetch: typeof globalThis.fetch = (_input, init) => {
      attempts++;
      if (attempts > 1) return Promise.resolve(notFound());
      // Never answers: only the per-attempt timeout ends it.
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true });
      });
    };
    const outcome = await settle(makeClient({ fetch, timeout: 1_000 }).beneficiaries.delete(ID));
    expect(outcome).toEqual({ ok: true, value: undefined });
    expect(attempts).toBe(2);
  });

  it('.withResponse() of a delete settled by "not found" on the repeat carries that answer', async () => {
    useFakeClock();
    answers(
      () => fail(503, 'busy'),
      () => fail(400, `Beneficiary not found: ${ID}`, {}, { 'x-request-id': 'r2' }),
    );
    const outcome = await settle(makeClient().beneficiaries.delete(ID).withResponse());
    expect(outcome.ok && outcome.value.data).toBeUndefined();
    expect(outcome.ok && outcome.value.response).toMatchObject({ status: 400, requestId: 'r2' });
  });

  it('waits the backoff before the repeat, or the Retry-After the service sent', async () => {
    useFakeClock(new Date('2026-11-01T10:00:00Z'));
    const calls = answers(() => fail(503, 'busy', {}, { 'Retry-After': '3' }), deleted);
    expect((await settle(makeClient().beneficiaries.delete(ID))).ok).toBe(true);
    expect(calls[1]!.at - calls[0]!.at).toBe(3_000);
  });
});

describe('beneficiaries.delete: what still throws', () => {
  it('400 not found on the FIRST attempt throws BadRequestError (the id was never there)', async () => {
    const calls = answers(notFound);
    const error = await makeClient()
      .beneficiaries.delete(ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(isBeneficiaryNotFound(error)).toBe(true);
    expect((error as BadRequestError).message).toContain(ID);
    expect(calls).toHaveLength(1);
  });

  it('503 until the retries are used up throws: 1 + maxRetries DELETEs in all', async () => {
    useFakeClock();
    const calls = answers(() => fail(503, 'Service unavailable'));
    const error = await settleError(makeClient({ maxRetries: 2 }).beneficiaries.delete(ID));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(503);
    expect(calls).toHaveLength(3);
  });

  it('the per-call maxRetries bounds the DELETEs: maxRetries 0 sends one', async () => {
    useFakeClock();
    const calls = answers(() => fail(503, 'Service unavailable'));
    const error = await settleError(
      makeClient({ maxRetries: 5 }).beneficiaries.delete(ID, { maxRetries: 0 }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);
  });

  it('a 400 validation error on the repeat throws', async () => {
    useFakeClock();
    const calls = answers(
      () => fail(503, 'busy'),
      () =>
        fail(400, 'Validation failed', {
          errors: [{ path: ['beneficiaryId'], message: 'Invalid uuid' }],
        }),
    );
    const error = await settleError(makeClient().beneficiaries.delete(ID));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).errors).toEqual([{ path: ['beneficiaryId'], message: 'Invalid uuid' }]);
    expect(isBeneficiaryNotFound(error)).toBe(false);
    expect(calls).toHaveLength(2);
  });

  it('a refusal that is not retryable (403) is not sent again', async () => {
    const calls = answers(() => fail(403, 'API access has been disabled for this account'));
    await expect(makeClient().beneficiaries.delete(ID)).rejects.toThrow(/403/);
    expect(calls).toHaveLength(1);
  });

  it("the caller's abort during the wait ends the delete without a repeat", async () => {
    useFakeClock();
    const controller = new AbortController();
    const calls = answers(() => fail(503, 'busy'), deleted);
    const outcome = makeClient()
      .beneficiaries.delete(ID, { signal: controller.signal, timeout: 0 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // Once the first DELETE was answered, the pending timer is the wait before the repeat (timeout: 0 sets none).
    while (calls.length === 0 || vi.getTimerCount() === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    expect(await outcome).toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(1);
  });

  it('a Retry-After over 60 s ends it with the first error (as for any other request)', async () => {
    const calls = answers(() => fail(503, 'busy', {}, { 'Retry-After': '120' }), deleted);
    const error = await makeClient()
      .beneficiaries.delete(ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).retryAfter).toBe(120);
    expect(calls).toHaveLength(1);
  });
});
