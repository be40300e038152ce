import { PaymentsClient } from '../../src/index.js';
import { DEFAULT_API_KEY, type PaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY } from './fixtures.js';

/** Rewrites the JSON body of a successful GET the mock answered, in place. */
export type Rewrite = (request: Request, body: Record<string, unknown>) => void;

/** A client on `mock` whose listing answers can be rewritten, and whose requests are recorded as sent. */
export function wiredClient(mock: PaymentsMock, rewrite?: Rewrite) {
  const wire: Array<{ method: string; url: string; body: string }> = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      wire.push({ method: request.method, url: request.url, body: await request.clone().text() });
      const response = await mock.fetch(request);
      if (!rewrite || request.method !== 'GET' || !response.ok) return response;
      const body = (await response.json()) as Record<string, unknown>;
      rewrite(request, body);
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    },
  });
  return { client, wire, posts: () => wire.filter((w) => w.method === 'POST').length };
}

/** A USD payout of 5.00 with the given reference. */
export const usdPayout = (externalReference: string) => ({
  amount: '5.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});
