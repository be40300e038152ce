import { describe, expect, it } from 'vitest';
import { PaymentsClient, PaymentsError } from '../../src/index.js';
import { clientFor, useMock } from '../helpers/mock.js';
import { CANARY_KEY } from '../helpers/server.js';
import { expectNoKey, useTracing } from './spans.js';

// url.full is on every attempt span (the conventions make it Required), and nothing secret reaches it: the key
// travels in the X-API-Key header only, the base URL cannot hold credentials or a query, every query value is
// REDACTED, and what is left passes through the redactor that scrubs the key out of errors and logs.

const { mock } = useMock({ apiKeys: [{ key: CANARY_KEY, tenant: true, allowlist: ['127.0.0.1'] }] });
const { spans, metrics } = useTracing();
const client = () => clientFor(mock, { apiKey: CANARY_KEY, maxRetries: 0 });

describe('url.full, scrubbed', () => {
  it('each query value is REDACTED, the keys kept, in the order sent', async () => {
    await client().transactions.list({ pageSize: 5, status: 'failed' });
    const url = spans().find((s) => s.name === 'GET /transactions')!.attributes['url.full'];
    expect(url).toBe(`${mock.baseUrl}/transactions?pageSize=REDACTED&status=REDACTED`);
  });

  it('the API key never appears, even where a caller put it in the path and the query', async () => {
    await client()
      .request({
        method: 'GET',
        path: `/banks/${CANARY_KEY}`,
        query: { key: CANARY_KEY, q: `x${CANARY_KEY}` },
      })
      .catch(() => undefined);
    const attempt = spans().find((s) => s.name.startsWith('GET /banks/'))!;
    expect(attempt.attributes['url.full']).toBe(`${mock.baseUrl}/banks/[redacted]?key=REDACTED&q=REDACTED`);
    expect(attempt.name).toBe('GET /banks/{id}');
    expectNoKey(spans(), CANARY_KEY);
    expect(JSON.stringify([...(await metrics.read()).values()])).not.toContain(CANARY_KEY);
  });

  it('a base URL cannot carry credentials or a query, so url.full cannot take them from there', () => {
    for (const baseUrl of [
      `https://user:${CANARY_KEY}@payments.example.com`,
      `https://payments.example.com/api/v1/external?key=${CANARY_KEY}`,
    ]) {
      expect(() => new PaymentsClient({ apiKey: CANARY_KEY, baseUrl })).toThrow(PaymentsError);
    }
  });
});
