import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createPaymentsMock, type PaymentsMock, type PaymentsMockOptions } from '../../src/testing/index.js';
import { STRICT } from './msw-strict.js';

export const KEY = 'sk_test_mock';

/** Mocks on distinct origins behind one MSW server; each is reset after every test. */
export function useMocks<const T extends Record<string, PaymentsMockOptions>>(
  configs: T,
): { [K in keyof T]: PaymentsMock } {
  const mocks = Object.fromEntries(
    Object.entries(configs).map(([name, options]) => [
      name,
      createPaymentsMock({ baseUrl: `https://${name.toLowerCase()}.payments.mock`, ...options }),
    ]),
  ) as { [K in keyof T]: PaymentsMock };
  const server = setupServer(...Object.values(mocks).flatMap((m) => m.handlers));
  beforeAll(() => server.listen(STRICT));
  afterEach(() => {
    for (const mock of Object.values(mocks)) mock.reset();
  });
  afterAll(() => server.close());
  return mocks;
}

export interface CallOptions {
  body?: unknown;
  key?: string | null;
  accountId?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
}

/** Parsed JSON of any shape, read freely by the tests. */
type Json = any;

/** A raw fetch against a mock (or any base URL); returns status, parsed body and headers. */
export async function call(
  base: PaymentsMock | string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers.set('X-API-Key', key);
  if (options.accountId) headers.set('X-Account-Id', options.accountId);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  const url = new URL(`${typeof base === 'string' ? base : base.baseUrl}${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
