/**
 * `npm run demo`: examples/quickstart.ts (its `main`): against the bundled mock on a loopback port, or, with
 * PAYMENTS_BASE_URL and PAYMENTS_API_KEY set, against that server (writes only against the mock or with --live).
 */
import { PaymentsError } from 'payments-service-sdk';
import { main } from '../examples/quickstart.js';

try {
  await main();
} catch (error) {
  // A person running the demo wants the reason, not a stack; anything unexpected still shows in full.
  if (!(error instanceof PaymentsError)) throw error;
  console.error(`\nStopped: ${error.name}: ${error.message}`);
  process.exitCode = 1;
}
