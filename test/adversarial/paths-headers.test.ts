/**
 * Paths and headers: ids and paths that could leave the intended endpoint (slashes, dot segments, encoded
 * slashes, query, fragment, white space, unicode, control characters) and header values that could split a
 * request (CR/LF, NUL, characters beyond Latin-1) are refused before anything is sent. MSW runs with NO
 * handlers and `onUnhandledFrame: 'error'` (MSW 3; `onUnhandledRequest` in MSW 2), and every request that reaches it is counted: the count stays 0.
 */

import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, PaymentsError, RequestValidationError } from '../../src/index.js';
import { STRICT } from '../helpers/msw-strict.js';
import { report } from '../helpers/report.js';
import { CANARY_KEY, ORIGIN } from '../helpers/server.js';

const server = setupServer();
const reached: string[] = [];
server.events.on('request:start', ({ request }) => {
  reached.push(`${request.method} ${request.url}`);
});
beforeAll(() => server.listen(STRICT));
afterEach(() => {
  expect(reached).toEqual([]);
});
afterAll(() => server.close());

const UUID = '3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f';
const client = new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, logLevel: 'off', maxRetries: 0 });

/** Ids no method may put in a path (the spec types every id as a uuid). */
const BAD_IDS: unknown[] = [
  'a/b',
  `${UUID}/..`,
  `${UUID}/../../transactions`,
  '..',
  '.',
  '%2e%2e',
  '%2F',
  `${UUID}%2F..`,
  `a%2Fb`,
  '?x=1',
  `${UUID}?status=failed`,
  '#frag',
  `${UUID}#x`,
  'a b',
  ` ${UUID}`,
  `${UUID} `,
  `${UUID}\t`,
  `${UUID}\n`,
  `${UUID}\r\nX-Injected: 1`,
  `${UUID}\0`,
  'ünïcødé',
  '\u{1F4B8}',
  '\uD800',
  `${UUID}\u200B`,
  `${UUID.slice(0, -1)}g`,
  '',
  '12345',
  'null',
  123,
  null,
  undefined,
  { toString: () => UUID },
  [UUID],
];

const payerNameUpdate = { display_name: 'Acme' };
const ngnBeneficiary = {
  currency: 'NGN',
  account_name: 'ADA OKAFOR',
  account_number: '0123456789',
  bank_code: '000014',
};

/** Every method that takes an id, with the field its RequestValidationError names. */
const ID_METHODS: [string, string, (id: never) => PromiseLike<unknown> | unknown][] = [
  ['beneficiaries.retrieve', 'beneficiaryId', (id) => client.beneficiaries.retrieve(id)],
  ['beneficiaries.update', 'beneficiaryId', (id) => client.beneficiaries.update(id, ngnBeneficiary)],
  ['beneficiaries.delete', 'beneficiaryId', (id) => client.beneficiaries.delete(id)],
  ['payerNames.update', 'payerNameId', (id) => client.payerNames.update(id, payerNameUpdate)],
  ['payerNames.setDefault', 'payerNameId', (id) => client.payerNames.setDefault(id)],
  ['payerNames.archive', 'payerNameId', (id) => client.payerNames.archive(id)],
  ['accounts.fundingInstructions', 'accountId', (id) => client.accounts.fundingInstructions(id)],
  ['accounts.createKycLink', 'accountId', (id) => client.accounts.createKycLink(id)],
  ['client.forAccount', 'accountId', (id) => client.forAccount(id)],
  [
    'new PaymentsClient({ accountId })',
    'accountId',
    (id) => new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, accountId: id }),
  ],
  ['client.withOptions({ accountId })', 'accountId', (id) => client.withOptions({ accountId: id })],
];

/** Runs `call` and returns what it threw (synchronously or as a rejection). */
async function thrown(call: () => PromiseLike<unknown> | unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

let refusals = 0;
async function expectRefused(label: string, call: () => PromiseLike<unknown> | unknown, field?: string) {
  const error = await thrown(call);
  expect(error, label).toBeInstanceOf(RequestValidationError);
  if (field !== undefined) expect((error as RequestValidationError).field, label).toBe(field);
  refusals++;
}

afterAll(() => {
  report(
    `paths-headers: ${refusals} hostile ids, paths and headers refused; requests sent: ${reached.length}`,
  );
});

describe('ids', () => {
  for (const [name, field, call] of ID_METHODS) {
    it(`${name} refuses every id that is not a uuid, before sending`, async () => {
      // `accountId: undefined` as an option means "no tenant scope", a valid choice.
      const ids = name.includes('{ accountId }') ? BAD_IDS.filter((id) => id !== undefined) : BAD_IDS;
      for (const id of ids)
        await expectRefused(`${name}(${JSON.stringify(String(id))})`, () => call(id as never), field);
    });
  }
});

describe('client.request and client.paginate paths', () => {
  const BAD_PATHS = [
    'banks',
    '',
    'https://evil.test/steal',
    '/a/../b',
    '/..',
    '/../accounts',
    '/a/./b',
    '/a/.',
    '/%2e%2e/x',
    '/%2E%2E/x',
    '/.%2e/x',
    '/%2e./x',
    '/%2e/x',
    '/a%2Fb',
    '/a%2fb',
    '/a%5Cb',
    '/a\\b',
    '/banks?x=1',
    '/banks#x',
    '/a b',
    '/a\tb',
    '/a\r\nX-Injected: 1',
    '/a\nb',
  ];

  it('refuses every path that could leave the API prefix or carry a query, before sending', async () => {
    for (const path of BAD_PATHS) {
      await expectRefused(
        `request ${JSON.stringify(path)}`,
        () => client.request({ method: 'GET', path }),
        'path',
      );
      await expectRefused(
        `POST ${JSON.stringify(path)}`,
        () => client.request({ method: 'POST', path, body: {} }),
        'path',
      );
      await expectRefused(`paginate ${JSON.stringify(path)}`, () => client.paginate({ path }), 'path');
    }
  });
});

describe('headers', () => {
  const BAD_VALUES = ['a\r\nX-Injected: 1', 'a\nb', 'a\rb', 'a\0b', 'ünïcødé €', '\u{1F4B8}', 'a\u0007b'];
  const BAD_NAMES = ['X-Bad\r\nX-Injected', 'X Bad', 'X-Bad:', '', 'X-Ünï', 'X-Bad\0'];

  it('per-call headers: a bad value or name is refused, on resources and on client.request', async () => {
    for (const value of BAD_VALUES) {
      const headers = { 'X-Trace': value };
      await expectRefused(
        `banks.list value ${JSON.stringify(value)}`,
        () => client.banks.list({ headers }),
        'headers.X-Trace',
      );
      await expectRefused(`request value ${JSON.stringify(value)}`, () =>
        client.request({ method: 'GET', path: '/banks', options: { headers } }),
      );
      await expectRefused(`transactions value ${JSON.stringify(value)}`, () =>
        client.transactions.list({}, { headers }),
      );
    }
    for (const name of BAD_NAMES) {
      await expectRefused(`banks.list name ${JSON.stringify(name)}`, () =>
        client.banks.list({ headers: { [name]: 'v' } }),
      );
    }
  });

  it('client headers, apiKey and accountId: refused when the client is built', async () => {
    for (const value of BAD_VALUES) {
      await expectRefused(
        `headers ${JSON.stringify(value)}`,
        () => new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, headers: { 'X-Trace': value } }),
      );
      await expectRefused(`withOptions headers ${JSON.stringify(value)}`, () =>
        client.withOptions({ headers: { 'X-Trace': value } }),
      );
      await expectRefused(
        `apiKey ${JSON.stringify(value)}`,
        () => new PaymentsClient({ apiKey: `${CANARY_KEY}${value}`, baseUrl: ORIGIN }),
        'apiKey',
      );
      await expectRefused(
        `accountId ${JSON.stringify(value)}`,
        () => new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, accountId: `${UUID}${value}` }),
        'accountId',
      );
    }
    for (const name of BAD_NAMES) {
      await expectRefused(
        `client header name ${JSON.stringify(name)}`,
        () => new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, headers: { [name]: 'v' } }),
      );
    }
  });

  it('X-API-Key and X-Account-Id cannot come through headers, where the uuid check would be skipped', async () => {
    let sent = 0;
    const options = {
      apiKey: CANARY_KEY,
      baseUrl: ORIGIN,
      accountId: UUID,
      logLevel: 'off' as const,
      fetch: async () => {
        sent++;
        return new Response('{"status":200,"success":true,"data":{"banks":[]}}');
      },
    };
    for (const headers of [{ 'X-API-Key': 'other' }, { 'x-account-id': '../x' }] as Record<
      string,
      string
    >[]) {
      expect(() => new PaymentsClient({ ...options, headers })).toThrow(RequestValidationError);
      const error = await new PaymentsClient(options).banks.list({ headers }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
    }
    expect(sent).toBe(0);
  });
});

describe('every refusal is a PaymentsError', () => {
  it('nothing above threw a TypeError or URIError', () => {
    expect(refusals).toBeGreaterThan(400);
    expect(new RequestValidationError([])).toBeInstanceOf(PaymentsError);
  });
});
