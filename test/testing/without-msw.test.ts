/**
 * The testing entry without msw installed: everything but `mock.handlers` works, and `mock.handlers` says what
 * is missing. msw is made unloadable for this file only; scripts/smoke-pack.mjs repeats this with a real
 * install that has no msw at all.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('msw', () => {
  throw Object.assign(new Error("Cannot find package 'msw' imported from payments-service-sdk"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
});

const { PaymentsClient } = await import('../../src/index.js');
const { createPaymentsMock, DEFAULT_API_KEY, startMockServer } = await import('../../src/testing/index.js');

describe('payments-service-sdk/testing without msw', () => {
  it('loads, and mock.fetch serves a client', async () => {
    const mock = createPaymentsMock();
    const client = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      logLevel: 'off',
    });
    expect((await client.banks.list()).length).toBeGreaterThan(0);
  });

  it('startMockServer serves over loopback', async () => {
    const server = await startMockServer();
    try {
      const response = await fetch(`${server.baseUrl}/banks`, { headers: { 'X-API-Key': DEFAULT_API_KEY } });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('mock.handlers throws an error that names msw and the alternatives', () => {
    const mock = createPaymentsMock();
    expect(() => mock.handlers).toThrow(
      // vitest wraps the factory's error in its own sentence; a real install without msw gives Node's
      // "Cannot find package 'msw'" there (scripts/smoke-pack.mjs checks that message).
      /^mock\.handlers needs msw 2 or 3 \(`npm i -D msw`\), which could not be loaded \(.+\)\. mock\.fetch and startMockServer need no msw\.$/,
    );
  });
});
