/**
 * Run by load.test.ts in a child process (`node --import tsx`): 1,000 concurrent requests through one client
 * against the loopback mock, a few that time out, then the server is closed and the script simply ends. The
 * parent asserts that the process exits on its own, promptly: no timer or socket may keep it alive.
 */
import { APITimeoutError, PaymentsClient } from '../../src/index.js';
import { DEFAULT_API_KEY, startMockServer } from '../../src/testing/index.js';

const REQUESTS = 1_000;
const HUNG = 20;

const server = await startMockServer({ port: 0 });
// The client's default 60 s timeout: generous, so a loaded machine cannot turn answers into timeouts, and far
// longer than the parent's bound on the exit, so a leaked per-attempt timer shows as a late exit.
const client = new PaymentsClient({
  apiKey: DEFAULT_API_KEY,
  baseUrl: server.baseUrl,
  logLevel: 'off',
  timeout: 60_000,
});

const started = Date.now();
const results = await Promise.allSettled(
  Array.from({ length: REQUESTS }, (_, i) =>
    i % 2 ? client.banks.list() : client.transactions.list({ pageSize: 5, page: 1 + (i % 11) }),
  ),
);
const ok = results.filter((r) => r.status === 'fulfilled').length;

// Requests the server never answers: each ends by its per-attempt timeout (timers that must not linger).
server.mock.faults.hang('GET /banks', HUNG);
const hung = await Promise.allSettled(
  Array.from({ length: HUNG }, () => client.banks.list({ timeout: 100, maxRetries: 0 })),
);
const timedOut = hung.filter((r) => r.status === 'rejected' && r.reason instanceof APITimeoutError).length;

await server.close();
console.log(
  JSON.stringify({ requests: REQUESTS, ok, timedOut, ms: Date.now() - started, closedAt: Date.now() }),
);
// No process.exit(): the event loop must drain by itself.
