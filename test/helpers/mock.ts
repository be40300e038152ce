import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { type ClientOptions, PaymentsClient } from '../../src/index.js';
import {
  createPaymentsMock,
  DEFAULT_API_KEY,
  type PaymentsMock,
  type PaymentsMockOptions,
} from '../../src/testing/index.js';
import { STRICT } from './msw-strict.js';

/**
 * One mock per test file behind an MSW server that fails on any request without a handler. The mock is reset
 * to its seeded state after every test, so tests can change its data, settings and faults freely.
 */
export function useMock(
  options: PaymentsMockOptions = {},
  /** Further mocks (on other base URLs) served by the same MSW server and reset with it. */
  others: PaymentsMock[] = [],
): { mock: PaymentsMock; requests: string[] } {
  const mock = createPaymentsMock(options);
  const server = setupServer(...mock.handlers, ...others.flatMap((m) => m.handlers));
  // Every request that reached the network: `METHOD /path?query` (relative to the main mock's base URL).
  const requests: string[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(`${request.method} ${request.url.replace(mock.baseUrl, '')}`);
  });
  beforeAll(() => server.listen(STRICT));
  afterEach(() => {
    vi.useRealTimers();
    mock.reset();
    for (const other of others) other.reset();
    requests.length = 0;
  });
  afterAll(() => server.close());
  return { mock, requests };
}

/** A real SDK client pointed at the mock, with the key the mock accepts by default. */
export function clientFor(mock: { baseUrl: string }, options: ClientOptions = {}): PaymentsClient {
  return new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, logLevel: 'off', ...options });
}

export { BENEFICIARY, ngnPayout, rejection, settle, useFakeClock } from './fixtures.js';
