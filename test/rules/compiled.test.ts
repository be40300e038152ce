/**
 * zod's compiled parsers (Node, Bun, Deno) and its interpreted ones (Workers, the edge runtime, a CSP) give the
 * same results and the same errors, word for word: every schema the package exports is run both ways over every
 * record the mock answers with (the valid fixtures, and each a wrong fixture for the other schemas) and over
 * broken copies of each record (a field removed, null, of another type). Which path a runtime takes is shown
 * by the runtime matrix (scripts/runtime-checks.mjs reads the client's debug line).
 */

import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as sdk from '../../src/index.js';
import { compiler as nodeCompiler } from '../../src/rules/compiler.js';
import { compiler as noCompiler } from '../../src/rules/no-compiler.js';
import { check, type Schema, toFieldIssues, validationPath } from '../../src/rules/schema.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';

/** Every zod schema the package exports, by name. */
const SCHEMAS = Object.entries(sdk as Record<string, unknown>).filter(
  (entry): entry is [string, Schema<unknown>] => entry[0].endsWith('Schema') && '_zod' in Object(entry[1]),
);

/** The response schemas the compiler must take (a refusal would silently leave them interpreted). */
const MUST_COMPILE = {
  TransactionSchema: sdk.TransactionSchema,
  TransactionListItemSchema: sdk.TransactionListItemSchema,
  LegacyTransactionSchema: sdk.LegacyTransactionSchema,
  PayoutSchema: sdk.PayoutSchema,
  BankSchema: sdk.BankSchema,
  AccountLookupSchema: sdk.AccountLookupSchema,
  BeneficiarySchema: sdk.BeneficiarySchema,
  PayerNameSchema: sdk.PayerNameSchema,
  CurrencySchema: sdk.CurrencySchema,
};

/** Every object and array inside `value`, `value` included. */
function records(value: unknown, into: unknown[] = []): unknown[] {
  if (value === null || typeof value !== 'object') return into;
  into.push(value);
  for (const child of Object.values(value)) records(child, into);
  return into;
}

/** The JSON bodies the mock answers every read with, and a created payout. */
async function mockBodies(): Promise<unknown[]> {
  const mock = createPaymentsMock();
  const bodies: unknown[] = [];
  const client = new sdk.PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const response = await mock.fetch(new Request(input, init));
      const text = await response.clone().text();
      if (text.startsWith('{') || text.startsWith('[')) bodies.push(JSON.parse(text));
      return response;
    },
  });
  const banks = await client.banks.list();
  const bank = banks[0]!;
  await client.banks.lookup({ bankCode: bank.bankCode, accountNumber: '0123456788' });
  await client.transactions.list({ pageSize: 100 });
  await client.wallet.supportedCurrencies();
  await client.wallet.list();
  await client.wallet.transactions.list();
  await client.beneficiaries.list();
  await client.payerNames.list();
  await client.accounts.list();
  await client.payouts.create({
    amount: '1000.00',
    currency: 'NGN',
    beneficiary: {
      accountName: 'ADAEZE KEMI OKAFOR',
      accountNumber: '0123456788',
      bankName: bank.bankName,
      bankCode: bank.bankCode,
      email: 'ada@example.com',
    },
    externalReference: sdk.createExternalReference('compiled'),
  });
  return bodies;
}

/** Broken copies of a record: each field removed, null, a number, a string, an object, empty. */
function broken(record: unknown): unknown[] {
  if (Array.isArray(record)) return [[...record, null], [...record, 'x'], record.slice(1)];
  if (record === null || typeof record !== 'object') return [];
  const out: unknown[] = [];
  for (const key of Object.keys(record)) {
    const { [key]: _, ...without } = record as Record<string, unknown>;
    out.push(without);
    for (const value of [null, 12345, 'x', {}, '']) out.push({ ...(record as object), [key]: value });
  }
  return out;
}

/** Values no response holds but a hostile one may: not objects, an own `__proto__`, a getter-free class. */
const ODD = [
  null,
  undefined,
  'text',
  42,
  [],
  {},
  JSON.parse('{"__proto__": {"polluted": true}, "id": "x", "status": "completed"}'),
  Object.create(null),
  new Date(0),
];

/** What a check comes to, in the form a caller sees it: the data, or the field issues with their messages. */
function outcome(schema: Schema<unknown>, value: unknown, response: boolean) {
  const result = check(schema, value, response);
  if (!result.ok) return { issues: toFieldIssues(result.error, ['row']) };
  const { data } = result;
  const shape = data !== null && typeof data === 'object' ? Object.getPrototypeOf(data) : undefined;
  return { data, json: JSON.stringify(data), shape };
}

afterEach(() => {
  z.config({ jitless: false });
});

describe('compiled validation', () => {
  it('is the path here (Node), and zod compiles every response schema', () => {
    expect(validationPath()).toMatchObject({ compiled: true });
    for (const [name, schema] of Object.entries(MUST_COMPILE)) {
      expect(() => z.compile(schema as Schema<unknown>, { strict: true }), name).not.toThrow();
    }
  });

  it('gives the same data and the same errors as the interpreted parsers, on every fixture and broken ones', async () => {
    // One of each distinct record: the mock's 54 transactions share their shapes.
    const fixtures = [
      ...new Map(
        (await mockBodies()).flatMap((body) => records(body)).map((r) => [JSON.stringify(r), r]),
      ).values(),
    ];
    // Broken copies of one record of each set of keys: records of one kind break the same ways.
    const kinds = new Map(fixtures.map((r) => [Object.keys(r as object).join(), r]));
    const values = [...fixtures, ...[...kinds.values()].flatMap(broken), ...ODD];
    expect(fixtures.length).toBeGreaterThan(100);
    let compared = 0;
    let failures = 0;
    for (const [name, schema] of SCHEMAS) {
      // Warmed past the threshold, so each later check of a response value runs the compiled clone.
      for (let i = 0; i < 64; i++) check(schema, {}, true);
      for (const value of values) {
        const interpreted = outcome(schema, value, false);
        const compiled = outcome(schema, value, true);
        expect(compiled, `${name} on ${JSON.stringify(value)?.slice(0, 200)}`).toStrictEqual(interpreted);
        compared++;
        if ('issues' in interpreted) failures++;
      }
    }
    // Both outcomes are well represented: many values pass, many more fail.
    expect(failures).toBeGreaterThan(compared / 4);
    expect(compared - failures).toBeGreaterThan(300);
  }, 120_000);

  it('a response refused by the compiled path names the field as the interpreted one does', async () => {
    const mock = createPaymentsMock();
    const client = (jitless: boolean) => {
      z.config({ jitless });
      return new sdk.PaymentsClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl: mock.baseUrl,
        logLevel: 'off',
        fetch: async (input, init) => {
          const response = await mock.fetch(new Request(input, init));
          const body = await response.json();
          const rows = body.data.transactions;
          rows[5] = 'not a row';
          return Response.json(body);
        },
      });
    };
    const refusal = async (jitless: boolean) => {
      const error = await client(jitless)
        .transactions.list({ pageSize: 20 })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(sdk.ResponseValidationError);
      const { message, issues, reason } = error as sdk.ResponseValidationError;
      return { message, issues, reason };
    };
    // Warmed past the threshold, as a walk's first pages would.
    for (let i = 0; i < 64; i++) check(sdk.TransactionListItemSchema, {}, true);
    const compiled = await refusal(false);
    expect(compiled.issues[0]?.path).toEqual(['5']);
    expect(compiled).toStrictEqual(await refusal(true));
  });

  it('turns off under z.config({ jitless: true }), as a CSP-bound app sets it', () => {
    z.config({ jitless: true });
    expect(validationPath()).toEqual({ compiled: false, why: 'z.config({ jitless: true }) is set' });
  });

  it("the interpreted build's #compiler has no compiler; the Node one has zod's", () => {
    expect(noCompiler()).toBe("this build leaves zod's compiler out");
    expect(nodeCompiler()).toBe(z.compile);
  });
});
