/** The response stage: what a 2xx that cannot be read turns into, for requests the service acts on or not. */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AcceptedButUnreadableError } from '../../src/index.js';
import { BASE, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();

describe('a 2xx whose body the caller cannot read', () => {
  const select = (r: { payload: unknown }) => (r.payload as { items: { length: number } }).items.length;

  it("a POST: a caller's select throwing is AcceptedButUnreadableError, sent once (the service acted on it)", async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/transfers`, () => {
        posts++;
        return ok({ id: 't1' }, 201);
      }),
    );
    const error = await makeClient()
      .request({ method: 'POST', path: '/transfers', body: { amount: 1 }, select })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AcceptedButUnreadableError);
    expect((error as AcceptedButUnreadableError).status).toBe(201);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(posts).toBe(1);
  });

  it('a GET: the same throw reaches the caller as it is (nothing was acted on)', async () => {
    server.use(
      http.get(`${BASE}/things`, () =>
        HttpResponse.json({ status: 200, success: true, message: 'OK', data: {} }),
      ),
    );
    await expect(makeClient().request({ method: 'GET', path: '/things', select })).rejects.toBeInstanceOf(
      TypeError,
    );
  });
});
