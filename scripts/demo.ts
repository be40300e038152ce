/**
 * `npm run demo`: runs examples/quickstart.ts against the bundled mock on a loopback port, or, with
 * PAYMENTS_BASE_URL and PAYMENTS_API_KEY set, against that server (writes only with --live).
 */
import { PaymentsClient, PaymentsError } from 'payments-service-sdk';
import { DEFAULT_API_KEY, startMockServer } from 'payments-service-sdk/testing';
import { quickstart } from '../examples/quickstart.js';

const log = (line: string) => console.log(line);

if (process.env.PAYMENTS_BASE_URL && process.env.PAYMENTS_API_KEY) {
  const live = process.argv.includes('--live');
  try {
    const client = new PaymentsClient();
    log(`Against ${client.baseUrl}${live ? ' (LIVE: writes enabled)' : ' (read-only; --live to write)'}\n`);
    await quickstart({ client, allowWrites: live, log });
  } catch (error) {
    // A person running the demo wants the reason, not a stack; anything unexpected still shows in full.
    if (!(error instanceof PaymentsError)) throw error;
    console.error(`\nStopped: ${error.name}: ${error.message}`);
    process.exitCode = 1;
  }
} else {
  const server = await startMockServer({ port: 0 });
  log(`Against the bundled mock at ${server.baseUrl} (no API key or network needed)\n`);
  try {
    const client = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: server.baseUrl,
      logLevel: 'error',
    });
    await quickstart({ client, mock: server.mock, allowWrites: true, log, visibilityWaits: [100, 400] });
  } finally {
    await server.close();
  }
}
