#!/usr/bin/env node
/**
 * Serves the built mock (`dist/testing.js`) on 127.0.0.1 for `scripts/runtime-smoke.mjs` run by another
 * runtime. Prints one line, `{"baseUrl":"http://127.0.0.1:<port>/api/v1/external"}`, and stays up until it is
 * sent SIGTERM/SIGINT or its stdin closes (so it never outlives the process that started it).
 *
 * A request carrying `X-Smoke-Delay: <ms>` is answered that much later (at most 10 s): the smoke uses it to
 * abort a request that is really in flight.
 */
import { createPaymentsMock, startMockServer } from '../dist/testing.js';

const mock = createPaymentsMock();
const handle = mock.handle.bind(mock);
mock.handle = async (request, context) => {
  const delay = Math.min(Number(request.headers.get('x-smoke-delay')) || 0, 10_000);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  return handle(request, context);
};

const server = await startMockServer({ mock });
console.log(JSON.stringify({ baseUrl: server.baseUrl }));

let closing = false;
async function stop() {
  if (closing) return;
  closing = true;
  await server.close().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
