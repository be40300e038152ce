import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  type BeneficiaryInput,
  beneficiaryInputIssues,
  isBeneficiaryNotFound,
  type PaymentsClient,
  RequestValidationError,
} from '../../src/index.js';
import { missingClassificationFields } from '../../src/rules/beneficiary.js';
import { BASE, CANARY_KEY, fail, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();

const ID = '6b0e8f52-3c1d-4a7e-9f21-0d4c5b6a7e81';
// Stand-ins for the field names the spec does not show; real ones come from the account manager.
const UNSHOWN_ADDRESS_PART = 'address_part_from_account_manager';
const UNSHOWN_WALLET_FIELD = 'wallet_field_from_account_manager';

const usAddress = { city: 'New York', country: 'US' };
const valid = {
  ngn: {
    currency: 'NGN',
    account_name: 'Ada Obi',
    account_number: '0123456789',
    bank_code: '044',
    bank_name: 'Access',
  },
  ngnNull: { withdrawal_method: null, currency: 'NGN', account_name: 'Ada Obi' },
  ngnEmpty: {
    withdrawal_method: '',
    currency: 'NGN',
    account_name: 'Ada Obi',
    account_owner_type: 'individual',
  },
  ach: {
    withdrawal_method: 'ach',
    currency: 'USD',
    account_name: 'Acme Inc',
    account_number: '123456789012',
    bank_name: 'Chase',
    bank_address: usAddress,
    routing_number: '021000021',
    account_owner_type: 'business',
    account_category: 'checking',
  },
  domesticWire: {
    withdrawal_method: 'domestic_wire',
    currency: 'USD',
    account_name: 'Acme Inc',
    account_number: '123456789012',
    bank_name: 'Chase',
    bank_address: { ...usAddress, [UNSHOWN_ADDRESS_PART]: '383 Madison Ave' },
    routing_number: '021000021',
    account_owner_type: 'business',
    account_category: 'savings',
  },
  internationalWire: {
    withdrawal_method: 'international_wire',
    currency: 'EUR',
    account_name: 'Erika Muster',
    account_number: 'DE89370400440532013000',
    bank_name: 'Deutsche Bank',
    bank_address: { city: 'Frankfurt', country: 'DE' },
    swift_code: 'DEUTDEFF',
    account_owner_type: 'individual',
  },
  localTransfer: {
    withdrawal_method: 'local_transfer',
    currency: 'XAF',
    account_name: 'Eto',
    account_owner_type: 'individual',
  },
  localTransferNgn: { withdrawal_method: 'local_transfer', currency: 'NGN', account_name: 'Ada Obi' },
  usdt: {
    withdrawal_method: 'crypto_usdt',
    currency: 'USDT',
    account_name: 'Cold wallet',
    extra: { [UNSHOWN_WALLET_FIELD]: 'T9yD' },
  },
  usdc: { withdrawal_method: 'crypto_usdc', currency: 'USDC', account_name: 'Hot wallet' },
  platform: { withdrawal_method: 'platform_transfer', currency: 'USD', account_name: 'Partner' },
  mobileMoney: { withdrawal_method: 'mobile_money', currency: 'XAF' },
} satisfies Record<string, Record<string, unknown>>;

/** Fixtures are loosely typed on purpose (invalid ones too); the compile-time rules live in the types test. */
const asInput = (value: unknown) => value as BeneficiaryInput;

function without(input: Record<string, unknown>, field: string) {
  const { [field]: _, ...rest } = input;
  return rest;
}

interface Call {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** Answers every beneficiary route with `respond` and records what arrived. */
function route(respond: (call: Call) => Response = (call) => ok(saved(call))) {
  const calls: Call[] = [];
  const handler = async ({ request }: { request: Request }) => {
    const text = await request.text();
    const call = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    return respond(call);
  };
  server.use(http.all(`${BASE}/beneficiaries`, handler), http.all(`${BASE}/beneficiaries/:id`, handler));
  return calls;
}

/** What the service stores: the body's populated fields plus an id and a rail. */
function saved(call?: Call, extra: Record<string, unknown> = {}) {
  const body = (call?.body ?? valid.ngn) as Record<string, unknown>;
  return { id: ID, withdrawal_method: null, ...body, ...extra };
}

async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const methods: Array<[string, (c: PaymentsClient) => Promise<unknown>]> = [
  ['create', (c) => c.beneficiaries.create(asInput(valid.ach))],
  ['retrieve', (c) => c.beneficiaries.retrieve(ID)],
  ['list', async (c) => c.beneficiaries.list()],
  ['update', (c) => c.beneficiaries.update(ID, asInput(valid.ach))],
  ['delete', (c) => c.beneficiaries.delete(ID)],
];

describe('beneficiaries: requests and results', () => {
  it('create POSTs the validated body to /beneficiaries and returns the beneficiary', async () => {
    const calls = route();
    const input = {
      ...valid.domesticWire,
      account_number: '  123456789012 ',
      extra: { nested: { kept: true } },
    };
    const result = await makeClient().beneficiaries.create(asInput(input));
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.method).toBe('POST');
    expect(call!.url.pathname).toBe('/api/v1/external/beneficiaries');
    expect(call!.headers.get('x-api-key')).toBe(CANARY_KEY);
    expect(call!.headers.get('content-type')).toBe('application/json');
    // Trimmed as the spec says; fields whose names the spec does not show go out at the top level, untouched.
    const { extra, ...spelled } = input;
    expect(call!.body).toEqual({ ...spelled, ...extra, account_number: '123456789012' });
    expect(result).toEqual({ id: ID, ...(call!.body as object) });
    expect(result.withdrawal_method).toBe('domestic_wire');
  });

  it('create is not retried: a 503 surfaces at once', async () => {
    const calls = route(() => fail(503, 'Unavailable'));
    await expect(makeClient().beneficiaries.create(asInput(valid.ngn))).rejects.toThrow(/503/);
    expect(calls).toHaveLength(1);
  });

  it('retrieve GETs /beneficiaries/{id}, keeping unknown fields and unknown rails', async () => {
    const stored = { id: ID, withdrawal_method: 'crypto_sol', account_name: 'Wallet', risk_tier: 2 };
    const calls = route(() => ok(stored));
    const result = await makeClient().beneficiaries.retrieve(ID);
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url.pathname).toBe(`/api/v1/external/beneficiaries/${ID}`);
    expect(calls[0]!.body).toBeUndefined();
    expect(result).toEqual(stored);
    expect(result.risk_tier).toBe(2);
  });

  it('rejects a response without the always-present withdrawal_method', async () => {
    route(() => ok({ id: ID, account_name: 'Ada' }));
    await expect(makeClient().beneficiaries.retrieve(ID)).rejects.toThrow(/withdrawal_method/);
  });

  it.each(['beneficiaries', 'items'])('list finds the rows under %s and sends page/pageSize', async (key) => {
    const rows = [saved(undefined, { id: ID }), { id: 'b2', withdrawal_method: 'ach', bank_name: 'Chase' }];
    const calls = route(() => ok({ [key]: rows, totalCount: 2, page: 2, pageSize: 50, totalPages: 2 }));
    const page = await makeClient().beneficiaries.list({ page: 2, pageSize: 50 });
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url.pathname).toBe('/api/v1/external/beneficiaries');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ page: '2', pageSize: '50' });
    expect(page.data).toEqual(rows);
    expect(page.hasNextPage()).toBe(false);
  });

  it('list walks every page', async () => {
    route((call) => {
      const page = Number(call.url.searchParams.get('page') ?? 1);
      return ok({
        beneficiaries: [saved(undefined, { id: `${ID.slice(0, -1)}${page}`, label: `p${page}` })],
        totalCount: 3,
        page,
        pageSize: 1,
        totalPages: 3,
      });
    });
    const labels = (await makeClient().beneficiaries.list({ pageSize: 1 }).toArray()).map((b) => b.label);
    expect(labels).toEqual(['p1', 'p2', 'p3']);
  });

  it.each([
    [{ pageSize: 0 }, 'pageSize'],
    [{ page: 0 }, 'page'],
    [{ currency: 'NGN' }, 'currency'],
  ])('list refuses %o before sending', async (params, field) => {
    const calls = route();
    const error = await rejection(makeClient().beneficiaries.list(params as { page?: number }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect(calls).toHaveLength(0);
  });

  it('update PATCHes the whole body to /beneficiaries/{id}', async () => {
    const calls = route((call) => ok(saved(call)));
    const result = await makeClient().beneficiaries.update(ID, asInput(valid.internationalWire));
    expect(calls[0]!.method).toBe('PATCH');
    expect(calls[0]!.url.pathname).toBe(`/api/v1/external/beneficiaries/${ID}`);
    expect(calls[0]!.headers.get('x-api-key')).toBe(CANARY_KEY);
    expect(calls[0]!.body).toEqual(valid.internationalWire);
    expect(result.withdrawal_method).toBe('international_wire');
  });

  it.each([
    ['omitted (keeps the stored rail)', valid.ngn],
    ['null (clears it)', valid.ngnNull],
    ['empty (clears it)', valid.ngnEmpty],
  ])('update sends withdrawal_method %s as given', async (_, body) => {
    const calls = route();
    await makeClient().beneficiaries.update(ID, asInput(body));
    expect(calls[0]!.body).toEqual(body);
    expect('withdrawal_method' in (calls[0]!.body as object)).toBe('withdrawal_method' in body);
  });

  it('delete sends DELETE with no body and resolves with nothing', async () => {
    const calls = route(() =>
      HttpResponse.json({
        status: 200,
        message: 'Beneficiary deleted successfully',
        success: true,
        data: {},
      }),
    );
    await expect(makeClient().beneficiaries.delete(ID)).resolves.toBeUndefined();
    expect(calls[0]!.method).toBe('DELETE');
    expect(calls[0]!.url.pathname).toBe(`/api/v1/external/beneficiaries/${ID}`);
    expect(calls[0]!.body).toBeUndefined();
  });

  it('passes per-call options through (headers) on writes', async () => {
    const calls = route();
    await makeClient().beneficiaries.create(asInput(valid.ngn), { headers: { 'X-Trace': 't1' } });
    expect(calls[0]!.headers.get('x-trace')).toBe('t1');
  });
});

describe('beneficiaries: documented errors', () => {
  const cases: Array<[string, () => Response, (e: unknown) => void]> = [
    [
      '400 not found',
      () => fail(400, `Beneficiary not found: ${ID}`),
      (e) => {
        expect(e).toBeInstanceOf(BadRequestError);
        expect(isBeneficiaryNotFound(e)).toBe(true);
      },
    ],
    [
      '400 Validation failed',
      () =>
        fail(400, 'Validation failed', { errors: [{ path: ['bank_address', 'city'], message: 'Required' }] }),
      (e) => {
        expect(e).toBeInstanceOf(BadRequestError);
        expect((e as BadRequestError).errors).toEqual([
          { path: ['bank_address', 'city'], message: 'Required' },
        ]);
        expect(isBeneficiaryNotFound(e)).toBe(false);
      },
    ],
    [
      '401',
      () => fail(401, 'Invalid or inactive API key'),
      (e) => {
        expect(e).toBeInstanceOf(AuthenticationError);
        expect(isBeneficiaryNotFound(e)).toBe(false);
      },
    ],
  ];
  const table = methods.flatMap(([name, call]) =>
    cases.map(([label, respond, check]) => [name, label, call, respond, check] as const),
  );

  it.each(table)('%s: %s', async (_, __, call, respond, check) => {
    const calls = route(respond);
    check(await rejection(call(makeClient())));
    expect(calls).toHaveLength(1);
  });

  it.each([
    [new Error('Beneficiary not found: x')],
    [new RequestValidationError([{ path: ['beneficiaryId'], message: 'must be a uuid' }])],
    [null],
    ['Beneficiary not found'],
  ])('isBeneficiaryNotFound(%o) is false', (value) => {
    expect(isBeneficiaryNotFound(value)).toBe(false);
  });
});

describe('beneficiaries: request rules', () => {
  it.each(Object.entries(valid))('accepts a valid %s beneficiary', async (_, input) => {
    expect(beneficiaryInputIssues(input)).toEqual([]);
    const calls = route();
    await makeClient().beneficiaries.create(asInput(input));
    // `extra` goes out at the top level, beside the spelled fields.
    const { extra, ...spelled } = input as Record<string, unknown> & { extra?: object };
    expect(calls[0]!.body).toEqual({ ...spelled, ...extra });
  });

  const long = (n: number) => 'x'.repeat(n);
  const invalid: Array<[string, Record<string, unknown> | unknown, string, string]> = [
    ['no currency', without(valid.ngn, 'currency'), 'currency', 'is required'],
    ['blank currency', { ...valid.ngn, currency: ' ' }, 'currency', 'is required'],
    ['no account_name (NGN)', without(valid.ngn, 'account_name'), 'account_name', 'is required'],
    ['no account_name (crypto)', without(valid.usdc, 'account_name'), 'account_name', 'is required'],
    ['no account_name (platform)', without(valid.platform, 'account_name'), 'account_name', 'is required'],
    ['no account_number (ach)', without(valid.ach, 'account_number'), 'account_number', 'is required'],
    [
      'blank account_number (wire)',
      { ...valid.domesticWire, account_number: '   ' },
      'account_number',
      'is required',
    ],
    ['no bank_name (domestic_wire)', without(valid.domesticWire, 'bank_name'), 'bank_name', 'is required'],
    [
      'no bank_address (international_wire)',
      without(valid.internationalWire, 'bank_address'),
      'bank_address',
      'is required',
    ],
    [
      'no bank_address.city',
      { ...valid.ach, bank_address: { country: 'US' } },
      'bank_address.city',
      'is required',
    ],
    [
      'no bank_address.country',
      { ...valid.ach, bank_address: { city: 'NYC' } },
      'bank_address.country',
      'is required',
    ],
    [
      '3-letter country',
      { ...valid.ach, bank_address: { city: 'NYC', country: 'USA' } },
      'bank_address.country',
      'two-letter',
    ],
    [
      'lower-case country',
      { ...valid.internationalWire, bank_address: { city: 'F', country: 'de' } },
      'bank_address.country',
      'two-letter',
    ],
    [
      'empty address part',
      { ...valid.ach, bank_address: { ...usAddress, [UNSHOWN_ADDRESS_PART]: '' } },
      `bank_address.${UNSHOWN_ADDRESS_PART}`,
      'must not be empty',
    ],
    [
      'no swift_code (international_wire)',
      without(valid.internationalWire, 'swift_code'),
      'swift_code',
      'is required',
    ],
    ['no routing_number (ach)', without(valid.ach, 'routing_number'), 'routing_number', 'is required'],
    [
      'no routing_number (domestic_wire)',
      without(valid.domesticWire, 'routing_number'),
      'routing_number',
      'is required',
    ],
    ['8-digit routing_number', { ...valid.ach, routing_number: '02100002' }, 'routing_number', '9-digit'],
    [
      'non-digit routing_number',
      { ...valid.domesticWire, routing_number: '02100002X' },
      'routing_number',
      '9-digit',
    ],
    [
      'no account_owner_type (ach)',
      without(valid.ach, 'account_owner_type'),
      'account_owner_type',
      'is required',
    ],
    [
      'no account_owner_type (wire)',
      without(valid.internationalWire, 'account_owner_type'),
      'account_owner_type',
      'is required',
    ],
    [
      'no account_owner_type (local XAF)',
      without(valid.localTransfer, 'account_owner_type'),
      'account_owner_type',
      'is required',
    ],
    [
      'unknown account_owner_type',
      { ...valid.ach, account_owner_type: 'company' },
      'account_owner_type',
      'must be one of',
    ],
    ['no account_category (USD)', without(valid.ach, 'account_category'), 'account_category', 'is required'],
    [
      'unknown account_category',
      { ...valid.ach, account_category: 'current' },
      'account_category',
      'must be one of',
    ],
    ['NGN account_number without bank_code', without(valid.ngn, 'bank_code'), 'bank_code', 'is required'],
    ['unknown rail', { ...valid.ngn, withdrawal_method: 'wire' }, 'withdrawal_method', 'must be one of'],
    ['number for a string', { ...valid.ngn, email: 42 }, 'email', 'must be a string'],
    ['currency > 10', { ...valid.ngn, currency: long(11) }, 'currency', 'at most 10'],
    ['account_name > 100', { ...valid.ngn, account_name: long(101) }, 'account_name', 'at most 100'],
    ['account_number > 50', { ...valid.ach, account_number: long(51) }, 'account_number', 'at most 50'],
    ['bank_name > 100', { ...valid.ach, bank_name: long(101) }, 'bank_name', 'at most 100'],
    ['bank_code > 20', { ...valid.ngn, bank_code: long(21) }, 'bank_code', 'at most 20'],
    ['swift_code > 20', { ...valid.internationalWire, swift_code: long(21) }, 'swift_code', 'at most 20'],
    [
      'routing_number > 20',
      { ...valid.localTransfer, routing_number: long(21) },
      'routing_number',
      'at most 20',
    ],
    ['email > 100', { ...valid.ngn, email: `${long(95)}@x.com` }, 'email', 'at most 100'],
    ['not an object', 'NGN', '', 'must be an object'],
    ['an array', [valid.ngn], '', 'must be an object'],
  ];

  it.each(invalid)('refuses %s before sending, naming the field', async (_, input, field, message) => {
    const calls = route();
    const client = makeClient();
    // An update without `withdrawal_method` keeps a rail the body does not name: only shared rules apply to it.
    const railNamed = typeof input === 'object' && input !== null && 'withdrawal_method' in input;
    const railFree = new Set(['currency', '', 'email', 'withdrawal_method', 'account_owner_type']);
    for (const send of [
      () => client.beneficiaries.create(asInput(input)),
      ...(railNamed || railFree.has(field) ? [() => client.beneficiaries.update(ID, asInput(input))] : []),
    ]) {
      const error = await rejection(send());
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(field);
      expect((error as RequestValidationError).message).toContain(message);
    }
    expect(calls).toHaveLength(0);
    expect(beneficiaryInputIssues(input)).toContainEqual({
      path: field ? field.split('.') : [],
      message: expect.stringContaining(message),
    });
  });

  it('accepts lengths at the limit and trims account_number before measuring it', () => {
    const atLimit = {
      ...valid.ach,
      account_name: long(100),
      account_number: ` ${long(50)} `,
      bank_name: long(100),
      email: long(100),
    };
    expect(beneficiaryInputIssues(atLimit)).toEqual([]);
  });

  it.each(['not-a-uuid', '../x', '', `${ID}/../x`])(
    'refuses the id %j on retrieve, update and delete',
    async (id) => {
      const calls = route();
      const client = makeClient();
      for (const send of [
        () => client.beneficiaries.retrieve(id),
        () => client.beneficiaries.update(id, asInput(valid.ngn)),
        () => client.beneficiaries.delete(id),
      ]) {
        const error = await rejection(send());
        expect(error).toBeInstanceOf(RequestValidationError);
        expect((error as RequestValidationError).field).toBe('beneficiaryId');
      }
      expect(calls).toHaveLength(0);
    },
  );

  it('beneficiaryInputIssues names every offending field at once and never throws on raw JSON', () => {
    const issues = beneficiaryInputIssues({
      withdrawal_method: 'ach',
      currency: 'USD',
      routing_number: '1',
      bank_address: { city: '' },
    });
    expect(issues.map((i) => i.path.join('.')).sort()).toEqual(
      [
        'bank_address.city',
        'account_name',
        'account_number',
        'bank_name',
        'account_owner_type',
        'account_category',
        'bank_address.country',
        'routing_number',
      ].sort(),
    );
    for (const raw of [
      null,
      undefined,
      42,
      true,
      [],
      {},
      { bank_address: 'x' },
      { bank_address: null, withdrawal_method: 7 },
    ]) {
      expect(() => beneficiaryInputIssues(raw)).not.toThrow();
      expect(beneficiaryInputIssues(raw).length).toBeGreaterThan(0);
    }
  });

  it('reports missing classification fields separately for the grace period', () => {
    const unclassified = without(without(valid.ach, 'account_owner_type'), 'account_category');
    expect(missingClassificationFields(unclassified)).toEqual(['account_owner_type', 'account_category']);
    expect(beneficiaryInputIssues(unclassified, { allowUnclassified: true })).toEqual([]);
    expect(beneficiaryInputIssues(unclassified).map((i) => i.path[0])).toEqual([
      'account_owner_type',
      'account_category',
    ]);
    expect(missingClassificationFields(valid.ach)).toEqual([]);
    expect(missingClassificationFields('raw')).toEqual([]);
  });
});

describe('beneficiaries: deprecation grace period', () => {
  const warning = { message: 'account_owner_type will be required' };
  const unclassified = without(without(valid.ach, 'account_owner_type'), 'account_category');

  it('allowUnclassified sends a body without classification, and the warning is in the result', async () => {
    const calls = route((call) => ok(saved(call, { deprecation_warning: warning })));
    const result = await makeClient().beneficiaries.create(asInput(unclassified), {
      allowUnclassified: true,
    });
    expect(calls[0]!.body).toEqual(unclassified);
    expect(result.deprecation_warning).toEqual(warning);
  });

  it('an inherited allowUnclassified (a polluted prototype) is not read: the body is refused, nothing sent', async () => {
    const calls = route((call) => ok(saved(call, { deprecation_warning: warning })));
    const options = Object.create({ allowUnclassified: true }) as { allowUnclassified?: boolean };
    const error = await makeClient()
      .beneficiaries.create(asInput(unclassified), options)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(calls).toHaveLength(0);
  });

  it('logs deprecation_warning once per client at warn level', async () => {
    route((call) => ok(saved(call, { deprecation_warning: warning })));
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    const client = makeClient({ logger, logLevel: 'warn' });
    await client.beneficiaries.update(ID, asInput(valid.ngn));
    await client.beneficiaries.retrieve(ID);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/deprecation_warning.*account_owner_type will be required/);
    await client.withOptions({}).beneficiaries.retrieve(ID);
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('logs nothing when no warning arrives', async () => {
    route();
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    await makeClient({ logger, logLevel: 'debug' }).beneficiaries.retrieve(ID);
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
