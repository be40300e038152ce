/**
 * Property-based tests (fast-check, fixed seed): envelope and pagination normalisers, money converters, and the
 * request validators. Valid inputs must always be sent; inputs broken in exactly one field must be refused
 * before sending, with `RequestValidationError.field` naming that field.
 */

import * as fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  beneficiaryInputIssues,
  PaymentsClient,
  payerNameCreateIssues,
  RequestValidationError,
  TRANSACTION_STATUSES,
  toMajorUnits,
  toMinorUnits,
} from '../../src/index.js';
import { pickList, unwrap } from '../../src/internal/envelope.js';
import { readPage } from '../../src/internal/list-shapes.js';
import { STRICT } from '../helpers/msw-strict.js';
import { payerName } from '../helpers/payer-names.js';
import { BASE, CANARY_KEY, ORIGIN, payoutAnswerFor, transaction } from '../helpers/server.js';

const SEED = 424_242;
const params = (numRuns: number) => ({ seed: SEED, numRuns });
/**
 * Hundreds of runs per property, many of them requests through MSW: seconds of work on a quiet machine, which a
 * loaded one stretches well past vitest's default 5 s. The runs are counted, not timed, so the bound is generous.
 */
const MANY_RUNS = { timeout: 120_000 };

// --- MSW: one server; every request is recorded, anything without a handler fails ---------------------------

const served: string[] = [];
let listBody: unknown = {};
const server = setupServer(
  http.get(`${BASE}/prop/list`, () => HttpResponse.json(listBody as never)),
  http.get(`${BASE}/prop/thing`, () => HttpResponse.json(listBody as never)),
  http.get(`${BASE}/transactions`, () =>
    HttpResponse.json({
      status: 200,
      success: true,
      message: 'OK',
      data: { transactions: [transaction(1)], totalCount: 1, page: 1, pageSize: 20, totalPages: 1 },
    }),
  ),
  http.post(`${BASE}/lookup`, () =>
    HttpResponse.json({
      status: 200,
      success: true,
      message: 'OK',
      data: { accountNumber: '0123456789', accountName: 'ADA', bankCode: '000014', bankName: 'Access' },
    }),
  ),
  http.post(`${BASE}/payouts`, async ({ request }) =>
    HttpResponse.json(payoutAnswerFor((await request.json()) as Record<string, unknown>)),
  ),
  http.post(`${BASE}/payer-names`, () =>
    HttpResponse.json({ status: 201, success: true, message: 'Created', data: payerName() }, { status: 201 }),
  ),
  http.post(`${BASE}/beneficiaries`, () =>
    HttpResponse.json({
      status: 201,
      success: true,
      message: 'Created',
      data: { id: 'b1', withdrawal_method: null },
    }),
  ),
);
server.events.on('request:start', ({ request }) => {
  served.push(`${request.method} ${new URL(request.url).pathname}`);
});
beforeAll(() => server.listen(STRICT));
afterEach(() => {
  served.length = 0;
});
afterAll(() => server.close());

const client = new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, logLevel: 'off', maxRetries: 0 });

/** A JSON round trip: what a payload looks like after crossing the wire. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value));

// --- (a) envelopes and pagination ---------------------------------------------------------------------------

const RESERVED = new Set(['status', 'message', 'success', 'data']);
const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !RESERVED.has(k));
const json = fc.jsonValue({ maxDepth: 3 });
/** A record payload without envelope keys, so it can also sit at the top level. */
const record = fc.dictionary(key, json, { maxKeys: 6, noNullPrototype: true });
const message = fc.string({ maxLength: 12 });

type Wrap = (payload: unknown, message: string) => unknown;
const numeric: Wrap = (data, message) => ({ status: 200, success: true, message, data });
const boolean: Wrap = (data, message) => ({ status: true, message, data });
const bare: Wrap = (payload, message) => ({
  status: 200,
  success: true,
  message,
  ...(payload as Record<string, unknown>),
});

describe('(a) envelope and pagination normalisers', MANY_RUNS, () => {
  it('unwrap: any payload in the numeric or boolean envelope comes back unchanged', () => {
    fc.assert(
      fc.property(json, message, fc.constantFrom(numeric, boolean), (payload, msg, wrap) => {
        const out = unwrap(wire(wrap(payload, msg)));
        expect(out.payload).toEqual(wire(payload));
        expect(out.message).toBe(msg);
      }),
      params(500),
    );
  });

  it('unwrap: a record payload at the top level, with or without envelope fields, is the same payload', () => {
    fc.assert(
      fc.property(record, message, (payload, msg) => {
        expect(unwrap(wire(bare(payload, msg))).payload).toEqual(wire(payload));
        const withoutEnvelope = { ...payload };
        expect(unwrap(wire(withoutEnvelope)).payload).toEqual(wire(payload));
      }),
      params(500),
    );
  });

  it('unwrap: a "__proto__" key at the top level survives as data (not as a prototype)', () => {
    const body = JSON.parse(
      '{"status":200,"success":true,"message":"OK","__proto__":{"polluted":1},"id":"x"}',
    );
    const payload = unwrap(body).payload as Record<string, unknown>;
    expect(Object.keys(payload)).toEqual(['__proto__', 'id']);
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect((payload as { polluted?: unknown }).polluted).toBeUndefined();
  });

  const listKey = fc.constantFrom('banks', 'transactions', 'payerNames', 'items');
  const rows = fc.array(json, { maxLength: 8 });

  it('pickList: rows under their key, in data.data (legacy), or as the payload are the same rows', () => {
    fc.assert(
      fc.property(rows, listKey, message, (list, k, msg) => {
        const variants = [
          numeric({ [k]: list }, msg),
          boolean({ data: list }, msg),
          boolean(list, msg),
          numeric(list, msg),
          { [k]: list },
          list,
        ];
        for (const body of variants) expect(pickList(unwrap(wire(body)).payload, k)).toEqual(wire(list));
      }),
      params(300),
    );
  });

  const counters = fc
    .record({
      page: fc.integer({ min: 1, max: 500 }),
      pageSize: fc.integer({ min: 1, max: 100 }),
      totalCount: fc.integer({ min: 0, max: 50_000 }),
      hasMore: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map((c) => ({ ...c, totalPages: Math.ceil(c.totalCount / c.pageSize) }));
  const pageRows = fc.array(fc.record({ id: fc.uuid(), n: fc.integer() }), { maxLength: 10 });
  type Counters = {
    page: number;
    pageSize: number;
    totalCount: number;
    totalPages: number;
    hasMore?: boolean;
  };

  /** Every list shape of the spec, in both envelopes, carrying the same rows and counters. */
  function listShapes(list: unknown[], c: Counters, k: string): Record<string, unknown> {
    const { hasMore, ...flat } = c;
    const more = hasMore === undefined ? {} : { hasMore };
    const strings = Object.fromEntries(Object.entries(flat).map(([n, v]) => [n, String(v)]));
    const { totalPages: _, ...noTotalPages } = flat;
    return {
      'flat counters (current)': numeric({ [k]: list, ...flat, ...more }, 'OK'),
      'flat counters as strings': numeric({ [k]: list, ...strings, ...more }, 'OK'),
      'flat, totalPages derived': numeric({ [k]: list, ...noTotalPages, ...more }, 'OK'),
      'legacy data.data': boolean({ data: list, ...flat, ...more }, 'OK'),
      'nested pagination': numeric({ [k]: list, pagination: { ...flat, ...more } }, 'OK'),
      'nested pagination with total': numeric(
        { [k]: list, pagination: { ...noTotalPages, total: c.totalCount, ...more } },
        'OK',
      ),
      'pagination beside data': { ...(numeric(list, 'OK') as object), pagination: { ...flat, ...more } },
      'top level, no envelope': { [k]: list, ...flat, ...more },
    };
  }

  it('readPage: every list shape, detected, gives the same rows, counters and next-page answer', () => {
    fc.assert(
      fc.property(pageRows, counters, listKey, fc.boolean(), (list, c, k, named) => {
        const expected = {
          rows: wire(list),
          page: c.page,
          pageSize: c.pageSize,
          totalCount: c.totalCount,
          totalPages: c.totalPages,
          // The walk goes on while either signal says more; the end is declared only when neither does.
          hasMore: list.length > 0 && (c.hasMore === true || c.page < c.totalPages),
          isLastPage: c.hasMore !== true && c.page >= c.totalPages,
        };
        for (const [shape, body] of Object.entries(listShapes(list, c, k))) {
          const info = readPage(undefined, {
            unwrapped: unwrap(wire(body)),
            headers: new Headers(),
            text: '',
            requested: { page: 99, pageSize: 7 },
            rowsKey: named ? k : undefined,
          });
          expect({ shape, info }).toEqual({ shape, info: expected });
        }
      }),
      params(300),
    );
  });

  it('client.paginate over MSW: every shape gives the same Page', async () => {
    await fc.assert(
      fc.asyncProperty(pageRows, counters, listKey, async (list, c, k) => {
        let reference: unknown;
        for (const [shape, body] of Object.entries(listShapes(list, c, k))) {
          listBody = body;
          const page = await client.paginate({ path: '/prop/list', rowsKey: k });
          const seen = {
            data: page.data,
            page: page.page,
            pageSize: page.pageSize,
            totalCount: page.totalCount,
            totalPages: page.totalPages,
            hasMore: page.hasMore,
          };
          expect(seen.data).toEqual(wire(list));
          reference ??= seen;
          expect({ shape, ...seen }).toEqual({ shape, ...(reference as object) });
        }
      }),
      params(30),
    );
  });

  it('client.request over MSW: the same payload whichever envelope carried it', async () => {
    await fc.assert(
      fc.asyncProperty(
        record,
        message,
        fc.constantFrom(numeric, boolean, bare),
        async (payload, msg, wrap) => {
          listBody = wrap(payload, msg);
          expect(await client.request({ method: 'GET', path: '/prop/thing' })).toEqual(wire(payload));
        },
      ),
      params(60),
    );
  });
});

// --- (b) money ----------------------------------------------------------------------------------------------

/** Major-unit text of `minor` with `digits` decimals, computed with BigInt (no floats anywhere). */
function bigMajor(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const base = 10n ** BigInt(digits);
  const fraction = (abs % base).toString().padStart(digits, '0');
  return `${negative ? '-' : ''}${abs / base}${digits ? `.${fraction}` : ''}`;
}

const digitsArb = fc.integer({ min: 0, max: 3 });
const CURRENCY = 'TST'; // digits are always passed explicitly

describe('(b) toMinorUnits / toMajorUnits', MANY_RUNS, () => {
  it('round trip for any safe integer of minor units and 0..3 digits, matching BigInt arithmetic', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), digitsArb, (minor, digits) => {
        const major = toMajorUnits(CURRENCY, minor, digits);
        expect(major).toBe(bigMajor(BigInt(minor), digits));
        expect(toMinorUnits(CURRENCY, major, digits)).toBe(minor);
      }),
      params(2_000),
    );
  });

  it('a decimal string is converted exactly (BigInt reference) or refused when beyond 2^53', () => {
    const whole = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 0n, max: 999n }));
    fc.assert(
      fc.property(
        fc.boolean(),
        whole,
        digitsArb.chain((d) =>
          fc.tuple(fc.constant(d), fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: d })),
        ),
        fc.nat(3),
        (negative, w, [digits, fraction], trailingZeros) => {
          const text = `${negative ? '-' : ''}${w}${fraction || trailingZeros ? `.${fraction}${'0'.repeat(trailingZeros)}` : ''}`;
          const exact =
            (negative ? -1n : 1n) * (w * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0'));
          const safe = exact <= BigInt(Number.MAX_SAFE_INTEGER) && exact >= -BigInt(Number.MAX_SAFE_INTEGER);
          if (safe) {
            expect(BigInt(toMinorUnits(CURRENCY, text, digits))).toBe(exact);
          } else {
            expect(() => toMinorUnits(CURRENCY, text, digits)).toThrow(RequestValidationError);
          }
        },
      ),
      params(2_000),
    );
  });

  it('refuses any input more precise than the currency (never rounds)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        digitsArb,
        fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 4 }),
        fc.constantFrom(...'123456789'),
        (w, digits, middle, last) => {
          // `digits` or more decimals ending in a non-zero digit: one more than the currency has, at least.
          const fraction = `${'0'.repeat(digits)}${middle}${last}`.slice(-(digits + 1 + middle.length));
          const text = `${w}.${fraction.padStart(digits + 1, '0')}`;
          let error: unknown;
          try {
            toMinorUnits(CURRENCY, text, digits);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(RequestValidationError);
          expect((error as RequestValidationError).field).toBe('amount');
        },
      ),
      params(1_000),
    );
  });

  it('a JS number converts exactly as its shortest decimal text does (no float multiplication)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -1e12, max: 1e12 }), digitsArb, (amount, digits) => {
        const viaText = attempt(() => toMinorUnits(CURRENCY, String(amount), digits));
        const viaNumber = attempt(() => toMinorUnits(CURRENCY, amount, digits));
        expect(viaNumber).toEqual(viaText);
      }),
      params(2_000),
    );
    expect(toMinorUnits('NGN', 1.15)).toBe(115); // 1.15 * 100 is 114.99999999999999
    expect(() => toMinorUnits('NGN', 0.1 + 0.2)).toThrow(RequestValidationError);
  });
});

function attempt(fn: () => number): { ok: number } | { error: string } {
  try {
    return { ok: fn() };
  } catch (error) {
    return { error: error instanceof RequestValidationError ? `RVE ${error.field}` : String(error) };
  }
}

// --- (c) request validators ---------------------------------------------------------------------------------

const REMOVE = Symbol('remove');
type Bad = unknown;

/** A breaker: the field it breaks, and the bad values for it (possibly depending on the valid input). */
interface Breaker<T> {
  field: string;
  bad: (input: T) => fc.Arbitrary<Bad>;
}

function setPath(input: unknown, path: string[], value: Bad): unknown {
  const copy = structuredClone(input) as Record<string, unknown>;
  let target = copy;
  for (const segment of path.slice(0, -1)) {
    target[segment] ??= {};
    target = target[segment] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === REMOVE) delete target[last];
  else target[last] = value;
  return copy;
}

/** A valid input broken in exactly one field, and that field's dotted name. */
function broken<T>(valid: fc.Arbitrary<T>, breakers: Breaker<T>[]) {
  return valid.chain((input) =>
    fc
      .constantFrom(...breakers)
      .chain((b) =>
        b.bad(input).map((value) => ({ input: setPath(input, b.field.split('.'), value), field: b.field })),
      ),
  );
}
const always =
  (...values: Bad[]) =>
  () =>
    fc.constantFrom(...values);

/** Text of 1..max characters that is not blank. */
const nonBlank = (max: number) =>
  fc.string({ minLength: 1, maxLength: Math.min(max, 40) }).filter((s) => s.trim() !== '');
const tooLong = (max: number) => fc.constant('x'.repeat(max + 1));
const digits = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
const day = (d: Date) => d.toISOString().slice(0, 10);
const dateArb = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2099-12-31T00:00:00Z'),
  noInvalidDate: true,
});

/** Runs a method with a refused input: it must throw RequestValidationError naming `field`, sending nothing. */
async function expectRefused(call: () => PromiseLike<unknown>, field: string): Promise<void> {
  served.length = 0;
  let error: unknown;
  try {
    await call();
  } catch (e) {
    error = e;
  }
  expect(error, `expected a RequestValidationError for ${field}`).toBeInstanceOf(RequestValidationError);
  // The first issue names the field (a cross-field rule such as endDate >= startDate may add a second one).
  expect((error as RequestValidationError).field).toBe(field);
  expect(served).toEqual([]);
}

async function expectSent(call: () => PromiseLike<unknown>, route: string): Promise<void> {
  served.length = 0;
  await call();
  expect(served).toEqual([route]);
}

// transactions.list

const BAD_DATES = [
  'yesterday',
  // Not "full" ISO 8601 timestamps: no seconds, no offset.
  '2026-11-01T10:00Z',
  '2026-11-01T10:00:00',
  '2026/01/01',
  '',
  '2026-13-01',
  '2026-02-30',
  '2026-1-1',
  '01-02-2026',
  '2026-01-01T25:00:00Z',
  20_260_101,
  new Date(Number.NaN),
];
type TxParams = Record<string, unknown>;
const txValid: fc.Arbitrary<TxParams> = fc
  .record({
    page: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
    pageSize: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
    status: fc.option(fc.constantFrom(...TRANSACTION_STATUSES), { nil: undefined }),
    dates: fc.tuple(dateArb, dateArb).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
    startForm: fc.constantFrom('day', 'iso', 'date', 'none'),
    endForm: fc.constantFrom('day', 'iso', 'date', 'none'),
  })
  .map(({ dates: [start, end], startForm, endForm, ...rest }) => {
    const form = (d: Date, f: string) =>
      f === 'day' ? day(d) : f === 'iso' ? d.toISOString() : f === 'date' ? d : undefined;
    const out: TxParams = { ...rest };
    if (startForm !== 'none') out.startDate = form(start!, startForm);
    if (endForm !== 'none') out.endDate = form(end!, endForm);
    return out;
  });
const notInt = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n));
const txBreakers: Breaker<TxParams>[] = [
  {
    field: 'page',
    bad: () =>
      fc.oneof(fc.integer({ max: 0 }), notInt, fc.constantFrom('2', null, true, Number.POSITIVE_INFINITY)),
  },
  {
    field: 'pageSize',
    bad: () =>
      fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 }), notInt, fc.constantFrom('10', null)),
  },
  {
    field: 'status',
    bad: () =>
      fc.oneof(
        fc.string().filter((s) => !(TRANSACTION_STATUSES as readonly string[]).includes(s)),
        fc.constantFrom('FAILED', 5, null),
      ),
  },
  { field: 'startDate', bad: always(...BAD_DATES) },
  // A reversed range is the service's to judge: the spec refuses none.
  { field: 'endDate', bad: always(...BAD_DATES) },
  { field: 'currency', bad: always('NGN') },
];

// banks.lookup

type LookupParams = Record<string, unknown>;
const pad = fc.constantFrom('', ' ', '\t', '  ');
const lookupValid: fc.Arbitrary<LookupParams> = fc.record({
  bankCode: fc.tuple(pad, nonBlank(12), pad).map((p) => p.join('')),
  accountNumber: fc.tuple(pad, digits(10), pad).map((p) => p.join('')),
  currency: fc.constantFrom(undefined, 'NGN'),
});
const lookupBreakers: Breaker<LookupParams>[] = [
  { field: 'bankCode', bad: always('', '   ', 42, null, REMOVE) },
  {
    field: 'accountNumber',
    bad: () =>
      fc.oneof(digits(9), digits(11), fc.constantFrom('012345678a', '', '01234 56789', 123_456_789, REMOVE)),
  },
  { field: 'currency', bad: always('USD', 'ngn', '', 1) },
  { field: 'bvn', bad: always('12345678901') },
];

// payouts.create

type PayoutBody = Record<string, unknown>;
const BENEFICIARY_FIELDS = ['accountName', 'accountNumber', 'bankName', 'bankCode', 'email'];
const payoutValid: fc.Arbitrary<PayoutBody> = fc.record(
  {
    // MAJOR units as a decimal string with the currency's two decimals, fractional or whole.
    amount: fc.oneof(
      fc.integer({ min: 1, max: 10 ** 11 }).map((minor) => toMajorUnits('NGN', minor)),
      fc.integer({ min: 1, max: 10 ** 9 }).map((major) => `${major}.00`),
    ),
    // Any case: the spec asks for "a currency code", not an upper-case one.
    currency: fc.constantFrom('NGN', 'USD', 'ngn'),
    // The spec gives no lengths and no non-blank rule for these: any string is sent.
    beneficiary: fc.record({
      accountName: fc.string({ maxLength: 400 }),
      accountNumber: digits(10),
      bankName: fc.string({ maxLength: 400 }),
      bankCode: digits(6),
      email: fc.string({ maxLength: 400 }),
    }),
    remark: fc.string({ maxLength: 400 }),
    // Sent byte for byte, any length: no white space at either end, no control characters.
    externalReference: fc
      .string({ minLength: 1, maxLength: 300, unit: 'grapheme' })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a reference may not hold.
      .filter((r) => r.trim() === r && !/[\u0000-\u001f\u007f-\u009f]/.test(r)),
  },
  { requiredKeys: ['amount', 'currency', 'beneficiary'] },
);
const payoutBreakers: Breaker<PayoutBody>[] = [
  // A number is refused too: minor units meant, or a response's amount fed back (they go in amountMinor).
  {
    field: 'amount',
    bad: always('0', 0, 1000, -5, '-1.00', '1.234', 'abc', '', '1e3', Number.NaN, null, REMOVE),
  },
  { field: 'currency', bad: always('', '  ', 1, REMOVE) },
  { field: 'beneficiary', bad: always(null, 'ADA', REMOVE) },
  ...BENEFICIARY_FIELDS.map((name) => ({ field: `beneficiary.${name}`, bad: always(5, null, REMOVE) })),
  { field: 'remark', bad: always(5, null) },
  { field: 'payerNameId', bad: always('', 'pn_1', 5) },
  {
    field: 'externalReference',
    bad: always('', '  ', ' inv-42', 'inv-42 ', 'inv\n42', 'inv\u000042', 'inv\u008542', 5, null),
  },
  { field: 'idempotencyKey', bad: always('k1') },
];
/** The same bodies with the amount in MINOR units instead (`amountMinor`, a whole number of kobo or cents). */
const payoutValidMinor = payoutValid.map(({ amount, ...body }) => ({
  ...body,
  amountMinor: toMinorUnits(body.currency as string, amount as string),
}));
/** A broken amountMinor, or the two forms at once (the second one given is the one named). */
const payoutMinorBroken = fc.oneof(
  payoutValidMinor.chain((valid) =>
    fc
      .constantFrom<unknown>(0, -5, 1.5, '250000', Number.NaN, 2 ** 53, null)
      .map((bad) => ({ input: { ...valid, amountMinor: bad }, field: 'amountMinor' })),
  ),
  payoutValid.map((valid) => ({ input: { ...valid, amountMinor: 100 }, field: 'amountMinor' })),
);

// payerNames.create

type PayerNameBody = Record<string, unknown>;
const metadataArb = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 64 }),
  fc.oneof(fc.string({ maxLength: 500 }), fc.integer(), fc.boolean()),
  { maxKeys: 4, noNullPrototype: true },
);
const payerNameValid: fc.Arbitrary<PayerNameBody> = fc
  .record(
    {
      entity_type: fc.constantFrom('individual', 'business'),
      display_name: fc.string({ minLength: 1, maxLength: 255 }),
      country: fc.string({ minLength: 1, maxLength: 100 }),
      address_line: fc.string({ minLength: 1, maxLength: 500 }),
      city: fc.string({ minLength: 1, maxLength: 120 }),
      state_province: fc.string({ minLength: 1, maxLength: 120 }),
      postal_code: fc.string({ maxLength: 32 }),
      registration_number: fc.string({ maxLength: 120 }),
      registration_date: dateArb.map(day),
      first_name: fc.string({ maxLength: 120 }),
      last_name: fc.string({ maxLength: 120 }),
      metadata: metadataArb,
    },
    {
      requiredKeys: ['entity_type', 'display_name', 'country', 'address_line', 'city', 'state_province'],
    },
  )
  .map((body) => {
    if (body.entity_type === 'individual') return body;
    const { first_name: _f, last_name: _l, ...business } = body;
    return business;
  });
const payerNameBreakers: Breaker<PayerNameBody>[] = [
  { field: 'entity_type', bad: always('robot', '', 5, REMOVE) },
  ...(
    [
      ['display_name', 255],
      ['country', 100],
      ['address_line', 500],
      ['city', 120],
      ['state_province', 120],
    ] as const
  ).map(([field, max]) => ({
    field,
    bad: () => fc.oneof(fc.constantFrom('', 5, null, REMOVE), tooLong(max)),
  })),
  ...(
    [
      ['postal_code', 32],
      ['registration_number', 120],
    ] as const
  ).map(([field, max]) => ({ field, bad: () => fc.oneof(fc.constantFrom(5, false), tooLong(max)) })),
  {
    field: 'registration_date',
    bad: always('2026-02-30', '2026-13-01', '01/02/2026', '2026-1-1', 20_260_101),
  },
  {
    field: 'first_name',
    bad: (input) =>
      input.entity_type === 'business' ? fc.constantFrom('Ada', '') : fc.oneof(tooLong(120), fc.constant(7)),
  },
  {
    field: 'last_name',
    bad: (input) =>
      input.entity_type === 'business' ? fc.constantFrom('Okafor') : fc.oneof(tooLong(120), fc.constant(7)),
  },
  { field: 'metadata', bad: always('crm', [1, 2], null) },
  { field: 'metadata.crm', bad: always({ nested: 1 }, [1], null, 'x'.repeat(501)) },
  { field: 'nickname', bad: always('Acme') },
];
/** A breaker of metadata that names its own key. */
const metadataKeyTooLong = payerNameValid.map((body) => {
  const k = 'k'.repeat(65);
  return { input: { ...body, metadata: { [k]: 'v' } }, field: `metadata.${k}` };
});

// beneficiaries (pure validator, three rails)

type BeneficiaryBody = Record<string, unknown>;
const ownerType = fc.constantFrom('individual', 'business');
const ngnValid: fc.Arbitrary<BeneficiaryBody> = fc.record(
  {
    currency: fc.constant('NGN'),
    account_name: nonBlank(100),
    account_number: digits(10),
    bank_code: digits(6),
    bank_name: nonBlank(100),
    email: fc.string({ maxLength: 100 }),
    withdrawal_method: fc.constantFrom(null, ''),
    account_owner_type: ownerType,
  },
  { requiredKeys: ['currency', 'account_name', 'account_number', 'bank_code', 'account_owner_type'] },
);
const achValid: fc.Arbitrary<BeneficiaryBody> = fc.record({
  withdrawal_method: fc.constantFrom('ach', 'domestic_wire'),
  currency: fc.constant('USD'),
  account_name: nonBlank(100),
  account_number: digits(12),
  bank_name: nonBlank(100),
  bank_address: fc.record({ city: nonBlank(60), country: fc.constant('US') }),
  routing_number: digits(9),
  account_owner_type: ownerType,
  account_category: fc.constantFrom('checking', 'savings'),
});
const wireValid: fc.Arbitrary<BeneficiaryBody> = fc.record({
  withdrawal_method: fc.constant('international_wire'),
  currency: fc.constantFrom('EUR', 'GBP'),
  account_name: nonBlank(100),
  account_number: nonBlank(50),
  bank_name: nonBlank(100),
  bank_address: fc.record({ city: nonBlank(60), country: fc.constantFrom('DE', 'GB', 'FR') }),
  swift_code: nonBlank(20),
  account_owner_type: ownerType,
});
const ngnBreakers: Breaker<BeneficiaryBody>[] = [
  { field: 'account_name', bad: () => fc.oneof(fc.constantFrom(REMOVE, '  ', 5), tooLong(100)) },
  { field: 'bank_code', bad: () => fc.oneof(fc.constantFrom(REMOVE, '', 5), tooLong(20)) },
  { field: 'account_number', bad: () => fc.oneof(tooLong(50), fc.constant(5)) },
  { field: 'email', bad: () => tooLong(100) },
  { field: 'currency', bad: () => fc.oneof(fc.constantFrom(REMOVE, ''), tooLong(10)) },
  { field: 'withdrawal_method', bad: always('paypal', 5) },
];
const bankRailBreakers: Breaker<BeneficiaryBody>[] = [
  { field: 'account_number', bad: always(REMOVE, '   ') },
  { field: 'bank_name', bad: always(REMOVE, '') },
  { field: 'bank_address', bad: always(REMOVE, 'New York', null) },
  { field: 'bank_address.city', bad: always(REMOVE, '  ', 5) },
  { field: 'bank_address.country', bad: always(REMOVE, 'usa', 'us', 'U1') },
  { field: 'account_owner_type', bad: always(REMOVE, 'robot') },
];
const achBreakers: Breaker<BeneficiaryBody>[] = [
  ...bankRailBreakers,
  {
    field: 'routing_number',
    bad: () => fc.oneof(digits(8), digits(10), fc.constantFrom('abcdefghi', REMOVE)),
  },
  { field: 'account_category', bad: always(REMOVE, 'current') },
];
const wireBreakers: Breaker<BeneficiaryBody>[] = [
  ...bankRailBreakers,
  { field: 'swift_code', bad: () => fc.oneof(fc.constantFrom(REMOVE, ''), tooLong(20)) },
];

/** Issues from a pure validator: at least one, the first naming `field`, and all of them about it. */
function expectIssuesAbout(issues: { path: string[] }[], field: string) {
  expect(issues.length, `issues for ${field}`).toBeGreaterThan(0);
  const names = issues.map((i) => i.path.join('.'));
  expect(names[0]).toBe(field);
  for (const name of names) expect(name === field || name.startsWith(`${field}.`), name).toBe(true);
}

describe('(c) request validators', MANY_RUNS, () => {
  it('transactions.list: valid filters are sent; one broken field is refused, named, and nothing leaves', async () => {
    await fc.assert(
      fc.asyncProperty(txValid, (p) =>
        expectSent(() => client.transactions.list(p), 'GET /api/v1/external/transactions'),
      ),
      params(150),
    );
    await fc.assert(
      fc.asyncProperty(broken(txValid, txBreakers), ({ input, field }) =>
        expectRefused(() => client.transactions.list(input as TxParams), field),
      ),
      params(400),
    );
  });

  it('banks.lookup: valid input is sent; one broken field is refused, named, and nothing leaves', async () => {
    await fc.assert(
      fc.asyncProperty(lookupValid, (p) =>
        expectSent(() => client.banks.lookup(p as never), 'POST /api/v1/external/lookup'),
      ),
      params(150),
    );
    await fc.assert(
      fc.asyncProperty(broken(lookupValid, lookupBreakers), ({ input, field }) =>
        expectRefused(() => client.banks.lookup(input as never), field),
      ),
      params(300),
    );
  });

  it('payouts.create: valid bodies are sent; one broken field is refused, named, and nothing leaves', async () => {
    await fc.assert(
      fc.asyncProperty(payoutValid, (body) =>
        expectSent(() => client.payouts.create(body as never), 'POST /api/v1/external/payouts'),
      ),
      params(150),
    );
    await fc.assert(
      fc.asyncProperty(broken(payoutValid, payoutBreakers), ({ input, field }) =>
        expectRefused(() => client.payouts.create(input as never), field),
      ),
      params(500),
    );
  });

  it('payouts.create with amountMinor: valid bodies are sent; a broken amountMinor, or both forms, is refused', async () => {
    await fc.assert(
      fc.asyncProperty(payoutValidMinor, (body) =>
        expectSent(() => client.payouts.create(body as never), 'POST /api/v1/external/payouts'),
      ),
      params(100),
    );
    await fc.assert(
      fc.asyncProperty(payoutMinorBroken, ({ input, field }) =>
        expectRefused(() => client.payouts.create(input as never), field),
      ),
      params(200),
    );
  });

  it('payerNames.create and payerNameCreateIssues agree: valid bodies pass and are sent, broken ones are named', async () => {
    await fc.assert(
      fc.asyncProperty(payerNameValid, async (body) => {
        expect(payerNameCreateIssues(body)).toEqual([]);
        await expectSent(() => client.payerNames.create(body as never), 'POST /api/v1/external/payer-names');
      }),
      params(150),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(broken(payerNameValid, payerNameBreakers), metadataKeyTooLong),
        async ({ input, field }) => {
          expectIssuesAbout(payerNameCreateIssues(input), field);
          await expectRefused(() => client.payerNames.create(input as never), field);
        },
      ),
      params(500),
    );
  });

  it('beneficiaryInputIssues for NGN, ach/domestic_wire and international_wire bodies', () => {
    for (const [valid, breakers] of [
      [ngnValid, ngnBreakers],
      [achValid, achBreakers],
      [wireValid, wireBreakers],
    ] as const) {
      fc.assert(
        fc.property(valid, (body) => {
          expect(beneficiaryInputIssues(body)).toEqual([]);
        }),
        params(200),
      );
      fc.assert(
        fc.property(broken(valid, breakers), ({ input, field }) =>
          expectIssuesAbout(beneficiaryInputIssues(input), field),
        ),
        params(400),
      );
    }
  });

  it('beneficiaries.create sends valid bodies and refuses broken ones before sending', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(ngnValid, achValid, wireValid), (body) =>
        expectSent(() => client.beneficiaries.create(body as never), 'POST /api/v1/external/beneficiaries'),
      ),
      params(60),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          broken(ngnValid, ngnBreakers),
          broken(achValid, achBreakers),
          broken(wireValid, wireBreakers),
        ),
        ({ input, field }) => expectRefused(() => client.beneficiaries.create(input as never), field),
      ),
      params(150),
    );
  });
});
