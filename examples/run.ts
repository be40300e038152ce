import { pathToFileURL } from 'node:url';
import { PaymentsError } from 'payments-service-sdk';
import { DEFAULT_API_KEY } from 'payments-service-sdk/testing';

/**
 * Runs `main` when the file is executed directly (`node examples/x.js`, `npx tsx examples/x.ts`), not when a
 * test imports it. A `PaymentsError` is printed as one line, not a stack.
 */
export function runIfMain(moduleUrl: string, main: () => Promise<unknown>): void {
  const entry = process.argv[1];
  if (entry && pathToFileURL(entry).href === moduleUrl) {
    main().catch((error: unknown) => {
      // The SDK's own errors say what went wrong in their message; anything else shows in full.
      console.error(error instanceof PaymentsError ? `${error.name}: ${error.message}` : error);
      process.exitCode = 1;
    });
  }
}

/**
 * Whether an example may write (save a beneficiary, send a payout): against the mock, whose key is the
 * well-known `sk_test_mock` (`npx payments-service-sdk mock` prints it), or with `--live`, which a person types
 * on purpose because the writes then move real money.
 */
export function writesAllowed(): boolean {
  return process.argv.includes('--live') || process.env.PAYMENTS_API_KEY === DEFAULT_API_KEY;
}
