/**
 * A payout that is safe to retry: the reference is created and persisted first, and `lookupBeforeRetry`
 * looks the payout up after any ambiguous failure instead of paying twice.
 * Run (moves real money!): PAYMENTS_BASE_URL=... PAYMENTS_API_KEY=... npx tsx examples/safe-payouts.ts --live
 */
import {
  PaymentsClient as Client,
  createExternalReference,
  type PaymentsClient,
  PayoutOutcomeUnknownError,
  toMajorUnits,
} from 'payments-service-sdk';
import { runIfMain } from './run.js';

/** Stands in for your database: the reference must be stored before the request leaves. */
const pending = new Map<string, string>();

export async function main(
  client: PaymentsClient = new Client(),
  log = console.log,
  visibilityWaits?: number[],
) {
  const beneficiary = { bankCode: '000014', accountNumber: '0123456788' };
  const holder = await client.banks.lookup(beneficiary); // name enquiry first, as the spec advises
  const externalReference = createExternalReference('inv');
  pending.set('invoice-1001', externalReference);
  try {
    const outcome = await client.payouts.lookupBeforeRetry(
      {
        amount: '2500.00',
        currency: 'NGN',
        beneficiary: {
          ...beneficiary,
          accountName: holder.accountName,
          bankName: holder.bankName,
          email: 'ap@example.com',
        },
        remark: 'Invoice 1001',
        externalReference,
      },
      { visibilityWaits, onAttempt: (e) => log(`  ${e.type} (attempt ${e.attempt})`) },
    );
    // `created` carries the POST's answer, `recovered` the listed transaction.
    const minor =
      outcome.status === 'created' ? outcome.payout.amount : (outcome.transaction.source_amount ?? 0);
    log(`payout ${outcome.status}: ${externalReference}, NGN ${toMajorUnits('NGN', minor)} deducted`);
    return outcome;
  } catch (error) {
    if (error instanceof PayoutOutcomeUnknownError) {
      log(`outcome unknown for ${error.externalReference}: keep it, alert, and look it up later`);
    }
    throw error;
  }
}

runIfMain(import.meta.url, async () => {
  if (!process.argv.includes('--live')) {
    console.log('This example moves real money: pass --live to run it.');
    return;
  }
  await main();
});
