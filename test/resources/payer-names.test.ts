import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  PAYER_NAME_DOCUMENT_MAX_BYTES,
  type PayerName,
  type PayerNameCreateParams,
  PermissionDeniedError,
  payerNameCreateIssues,
  RequestValidationError,
} from '../../src/index.js';
import { payerNameDocumentIssues } from '../../src/rules/payer-name.js';
import { capture as captureOn, ID, payerName, rejection, valid } from '../helpers/payer-names.js';
import { BASE, CANARY_KEY, fail, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();
const capture = (path: string, respond: () => Response) => captureOn(server, path, respond);

describe('payerNames.create (JSON)', () => {
  it('posts the snake_case body and returns the camelCase payer name, unknown fields kept', async () => {
    const seen = capture('/payer-names', () =>
      ok({ ...payerName({ metadata: { crm: 'c-1', tier: 2 } }), reviewQueue: 'eu' }, 201),
    );
    const result = await makeClient().payerNames.create({ ...valid, metadata: { crm: 'c-1', tier: 2 } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(seen[0]!.headers.get('x-api-key')).toBe(CANARY_KEY);
    expect(seen[0]!.body).toEqual({ ...valid, metadata: { crm: 'c-1', tier: 2 } });
    expect(result.status).toBe('pending_review');
    expect(result.metadata).toEqual({ crm: 'c-1', tier: 2 });
    expect(result.reviewQueue).toBe('eu');
    expectTypeOf(result).toExtend<PayerName>();
    expectTypeOf<'active'>().toExtend<PayerName['status']>();
    expectTypeOf<PayerName['firstName']>().toEqualTypeOf<string | null>();
  });

  it('accepts the sandbox answer (already active, metadata omitted)', async () => {
    capture('/payer-names', () =>
      HttpResponse.json(
        { status: 201, message: 'Payer name created', success: true, data: payerName({ status: 'active' }) },
        { status: 201 },
      ),
    );
    const result = await makeClient().payerNames.create(valid);
    expect(result.status).toBe('active');
    expect('metadata' in result).toBe(false);
  });

  it.each([
    [
      400,
      fail(400, 'Validation failed', { errors: [{ path: ['country'], message: 'unknown country' }] }),
      BadRequestError,
    ],
    [403, fail(403, 'Payer names are not enabled', { code: 'PAYER_NAMES_DISABLED' }), PermissionDeniedError],
    [409, fail(409, 'A payer name with this display name already exists'), ConflictError],
  ])('turns a %i into a typed error, sent once', async (_status, response, Class) => {
    const seen = capture('/payer-names', () => response.clone());
    const error = await rejection(makeClient().payerNames.create(valid));
    expect(error).toBeInstanceOf(Class);
    expect(seen).toHaveLength(1);
    if (error instanceof PermissionDeniedError) expect(error.code).toBe('PAYER_NAMES_DISABLED');
    if (error instanceof BadRequestError)
      expect(error.errors).toEqual([{ path: ['country'], message: 'unknown country' }]);
  });
});

const long = (n: number) => 'x'.repeat(n);
describe('create rules', () => {
  it.each([
    [
      'an individual with split names',
      { entity_type: 'individual', first_name: long(120), last_name: 'Doe' },
    ],
    [
      'the longest fields',
      { display_name: long(255), address_line: long(500), city: long(120), postal_code: long(32) },
    ],
    [
      'state and country at their limits',
      { state_province: long(120), country: long(100), registration_number: long(120) },
    ],
    ['flat metadata', { metadata: { [long(64)]: long(500), n: 1.5, b: false } }],
  ])('accepts %s', (_name, patch) => {
    expect(payerNameCreateIssues({ ...valid, ...patch })).toEqual([]);
  });

  it.each([
    [{ entity_type: undefined }, 'entity_type', 'is required'],
    [{ display_name: 42 }, 'display_name', 'must be a string'],
    [{ entity_type: 'trust' }, 'entity_type', 'must be one of: individual, business'],
    [{ display_name: '' }, 'display_name', 'must not be empty'],
    [{ display_name: long(256) }, 'display_name', 'at most 255'],
    [{ entity_type: 'individual', first_name: long(121) }, 'first_name', 'at most 120'],
    [{ last_name: 'Doe' }, 'last_name', 'entity_type individual only'],
    [{ registration_number: long(121) }, 'registration_number', 'at most 120'],
    [{ registration_date: '2021-02-29' }, 'registration_date', 'YYYY-MM-DD'],
    [{ registration_date: '29/02/2020' }, 'registration_date', 'YYYY-MM-DD'],
    [{ country: '' }, 'country', 'must not be empty'],
    [{ country: long(101) }, 'country', 'at most 100'],
    [{ address_line: long(501) }, 'address_line', 'at most 500'],
    [{ city: undefined }, 'city', 'is required'],
    [{ state_province: long(121) }, 'state_province', 'at most 120'],
    [{ postal_code: long(33) }, 'postal_code', 'at most 32'],
    [{ metadata: { [long(65)]: 'v' } }, `metadata.${long(65)}`, 'key must be at most 64'],
    [{ metadata: { note: long(501) } }, 'metadata.note', 'at most 500'],
    [{ metadata: { nested: { a: 1 } } }, 'metadata.nested', 'metadata is flat'],
    [{ metadata: { gone: null } }, 'metadata.gone', 'metadata is flat'],
    [{ metadata: ['a'] }, 'metadata', 'must be a flat object'],
    [{ displayName: 'Acme' }, 'displayName', 'is not a known field'],
  ])('refuses %o before sending, naming %s', async (patch, field, message) => {
    const seen = capture('/payer-names', () => ok(payerName(), 201));
    const body = { ...valid, ...patch };
    const error = await rejection(makeClient().payerNames.create(body as PayerNameCreateParams));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as RequestValidationError).message).toContain(message);
    expect(seen).toHaveLength(0);
    expect(payerNameCreateIssues(body).map((i) => i.path.join('.'))).toContain(field);
  });

  it('payerNameDocumentIssues judges uploaded files as the client does', () => {
    const issues = payerNameDocumentIssues([
      { name: 'a.pdf', type: 'application/pdf', size: 10 },
      { name: 'b.txt', size: 1 },
      { name: 'c.png', size: PAYER_NAME_DOCUMENT_MAX_BYTES + 1 },
      { name: 'd.bin', type: 'image/jpeg; charset=binary', size: PAYER_NAME_DOCUMENT_MAX_BYTES },
      { name: 'e.DOCX', type: '', size: 1 },
    ]);
    expect(issues.map((i) => i.path.join('.'))).toEqual(['documents.1', 'documents.2']);
  });

  it('payerNameCreateIssues never throws', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    for (const input of [undefined, null, 42, 'name', [], hostile]) {
      expect(payerNameCreateIssues(input).length).toBeGreaterThan(0);
    }
  });
});

describe('payerNames.list', () => {
  const page = (rows: unknown[], n = 1, totalPages = 1) =>
    ok({ payerNames: rows, pagination: { page: n, pageSize: 20, total: rows.length, totalPages } });

  it('sends the filters and pass-through query; reads the nested pagination', async () => {
    const seen = capture('/payer-names', () => page([payerName({ status: 'processing', rank: 1 })], 2, 3));
    const result = await makeClient().payerNames.list({
      page: 2,
      pageSize: 50,
      archived: false,
      status: 'approved',
      query: { search: 'acme', entityType: 'business' },
    });
    expect(seen[0]!.method).toBe('GET');
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      page: '2',
      pageSize: '50',
      archived: 'false',
      status: 'approved',
      search: 'acme',
      entityType: 'business',
    });
    expect(result.data[0]).toEqual(payerName({ status: 'processing', rank: 1 }));
    expect([result.page, result.totalPages, result.hasMore]).toEqual([2, 3, true]);
  });

  it('walks every page', async () => {
    server.use(
      http.get(`${BASE}/payer-names`, ({ request }) => {
        const n = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return page([payerName({ id: `${ID.slice(0, -1)}${n}`, name: `n${n}` })], n, 2);
      }),
    );
    const names: string[] = [];
    for await (const row of makeClient().payerNames.list()) names.push(row.name);
    expect(names).toEqual(['n1', 'n2']);
  });

  it.each([
    [{ status: 5 }, 'status', 'must be a string'],
    [{ archived: 'yes' }, 'archived', 'must be a boolean'],
    [{ query: { page: 3 } }, 'query.page', 'set it as the page parameter'],
    [{ query: { tags: ['a'] } }, 'query.tags', 'must be a string, number or boolean'],
    [{ sort: 'name' }, 'sort', 'is not a known field'],
  ])('refuses %o, naming %s', async (params, field, message) => {
    const seen = capture('/payer-names', () => page([]));
    const error = await rejection(makeClient().payerNames.list(params as any));
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as RequestValidationError).message).toContain(message);
    expect(seen).toHaveLength(0);
  });
});
