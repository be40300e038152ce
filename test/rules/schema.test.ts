/**
 * `recordOf` stands in for zod's `z.record` (whose code added 620 B to every gzipped bundle): checked side by side
 * with it, so "as z.record checks it" stays true.
 */

import vm from 'node:vm';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { RequestValidationError } from '../../src/index.js';
import { fieldIssues, recordOf } from '../../src/rules/schema.js';
import { BASE, makeClient, PAYOUT_BENEFICIARY, payoutInitiated, useServer } from '../helpers/server.js';

const server = useServer();

const ok = (schema: z.core.$ZodType, value: unknown) => z.safeParse(schema, value).success;

describe('recordOf', () => {
  const values: unknown[] = [
    {},
    { a: 'x', b: 'y' },
    { a: 'x', b: 5 },
    Object.assign(Object.create(null), { a: 'x' }),
    Object.create({ inherited: 'x' }),
    vm.runInNewContext('({ a: "x" })'),
    vm.runInNewContext('new Map()'),
    JSON.parse('{"__proto__": "x", "a": "y"}'),
    'text',
    5,
    null,
    undefined,
    ['x'],
    new Map([['a', 'x']]),
    new Date(0),
    new (class Box {
      a = 'x';
    })(),
  ];

  it('accepts and refuses what z.record(z.string(), value) does', () => {
    const ours = recordOf(z.string());
    const zods = z.record(z.string(), z.string());
    for (const value of values) expect([value, ok(ours, value)]).toEqual([value, ok(zods, value)]);
  });

  it('returns a copy with the same own fields, and drops __proto__ rather than replacing the prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "a": "x"}');
    const out = z.parse(recordOf(z.string()), JSON.parse('{"a": "x", "b": "y"}'));
    expect(out).toEqual({ a: 'x', b: 'y' });
    const parsed = z.safeParse(recordOf(z.unknown()), input);
    expect(parsed.success).toBe(true);
    expect(Object.keys(parsed.data as object)).toEqual(['a']);
    expect((parsed.data as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('names the key of a bad value, and says what the whole must be', () => {
    expect(fieldIssues(recordOf(z.string()), { good: 'x', bad: 5 })).toEqual([
      { path: ['bad'], message: 'must be a string' },
    ]);
    expect(fieldIssues(recordOf(z.string(), 'must be a flat object'), new Map())).toEqual([
      { path: [], message: 'must be a flat object' },
    ]);
    expect(fieldIssues(recordOf(z.string()), 'x')).toEqual([{ path: [], message: 'must be an object' }]);
  });

  it('keeps a key whose optional value is undefined, as z.record does', () => {
    const out = z.parse(recordOf(z.optional(z.string())), { a: undefined });
    expect(Object.hasOwn(out, 'a')).toBe(true);
  });

  it('sends the fields of a plain object made in another realm (a node:vm context)', async () => {
    let sent: unknown;
    server.use(
      http.post(`${BASE}/payouts`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(payoutInitiated({ destination_amount: 1000, fee_amount: 0 }));
      }),
    );
    await makeClient().payouts.create({
      amount: '10.00',
      currency: 'NGN',
      beneficiary: PAYOUT_BENEFICIARY,
      externalReference: 'inv-realm-1',
      extra: vm.runInNewContext('({ purpose_code: "P0101" })'),
    });
    expect(sent).toMatchObject({ purpose_code: 'P0101', externalReference: 'inv-realm-1' });
  });

  it('refuses a Map as payer-name metadata before anything is sent', async () => {
    const client = makeClient();
    const error = await client.payerNames
      .create({
        entity_type: 'business',
        display_name: 'Acme',
        country: 'NG',
        address_line: '1 Marina',
        city: 'Lagos',
        state_province: 'Lagos',
        metadata: new Map([['order', '42']]) as never,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toContainEqual({
      path: ['metadata'],
      message: 'must be a flat object',
    });
  });
});
