import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ResponseValidationError } from '../../src/index.js';
import { BASE, legacyOk, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();
const Thing = z.looseObject({ id: z.string(), amount: z.number() });

async function fetchThing(response: () => Response) {
  server.use(http.get(`${BASE}/thing`, response));
  return makeClient().request({ method: 'GET', path: '/thing', schema: Thing });
}

describe('envelopes', () => {
  const thing = { id: 't1', amount: 500 };

  it('unwraps the numeric envelope', async () => {
    expect(await fetchThing(() => ok(thing))).toEqual(thing);
  });

  it('unwraps the boolean envelope', async () => {
    expect(await fetchThing(() => legacyOk(thing))).toEqual(thing);
  });

  it('takes a payload that sits at the top level of the envelope', async () => {
    expect(
      await fetchThing(() =>
        HttpResponse.json({ status: 201, message: 'Created', success: true, ...thing }, { status: 201 }),
      ),
    ).toEqual(thing);
  });

  it('takes a body with no envelope at all', async () => {
    expect(await fetchThing(() => HttpResponse.json(thing))).toEqual(thing);
  });

  it('keeps unknown fields', async () => {
    expect(await fetchThing(() => ok({ ...thing, brandNew: { x: 1 } }))).toEqual({
      ...thing,
      brandNew: { x: 1 },
    });
  });

  it('reports a 2xx payload of the wrong shape with the raw body', async () => {
    const error = await fetchThing(() => ok({ id: 't1', amount: '500' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toEqual(['amount']);
    expect((error as ResponseValidationError).body).toMatchObject({ data: { amount: '500' } });
  });

  it('returns the payload untouched when no schema is given', async () => {
    server.use(http.get(`${BASE}/wallet/wallets`, () => legacyOk([{ currency: 'NGN' }])));
    expect(await makeClient().request({ method: 'GET', path: '/wallet/wallets' })).toEqual([
      { currency: 'NGN' },
    ]);
  });
});
