/**
 * A payout that is safe to retry: the reference is created and persisted first, and `lookupBeforeRetry`
 * looks the payout up after any ambiguous failure instead of paying twice. After a crash, `resumePending`
 * picks every pending payout up again from what was persisted, looking before it sends.
 * Run (moves real money!): PAYMENTS_BASE_URL=... PAYMENTS_API_KEY=... npx tsx examples/safe-payouts.ts --live
 */
import {
  PaymentsClient as Client,
  createExternalReference,
  type PaymentsClient,
  type PayoutCreateParams,
  PayoutOutcomeUnknownError,
  type Transaction,
  toMajorUnits,
} from 'payments-service-sdk';
import { runIfMain } from './run.js';

/**
 * Stands in for your database: the whole body, reference included, is stored before the request leaves. In a
 * real one, a worker takes a row lock on a pending row for the whole call: two workers must never resume the
 * same reference at once.
 */
const pending = new Map<string, PayoutCreateParams & { externalReference: string }>();

/**
 * How this merchant recognises its payouts in the listing. The spec says the service assigns the reference of
 * NGN payouts itself, so the listing never shows ours; but `remark` is the transaction's description, and this
 * merchant's remarks are unique (one per invoice).
 */
const sameRemark = (body: PayoutCreateParams) => (tx: Transaction) =>
  tx.transaction_type === 'withdrawal' && tx.description === body.remark;

export async function main(
  client: PaymentsClient = new Client(),
  log = console.log,
  visibilityWaits?: number[],
) {
  const beneficiary = { bankCode: '000014', accountNumber: '0123456788' };
  const holder = await client.banks.lookup(beneficiary); // name enquiry first, as the spec advises
  const externalReference = createExternalReference('inv');
  const body = {
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
  };
  pending.set('invoice-1001', body);
  try {
    const outcome = await client.payouts.lookupBeforeRetry(body, {
      visibilityWaits,
      match: sameRemark(body),
      onAttempt: (e) => log(`  ${e.type} (attempt ${e.attempt})`),
    });
    // `created` carries the POST's answer, `recovered` the listed transaction; either names the reference the
    // service assigned, worth storing beside ours for reconciliation.
    if (outcome.status === 'not_sent') {
      // Proven absent: nothing moved. Keep the body and send the same reference again later.
      log(`payout not sent: ${outcome.reason}; retry ${externalReference} later`);
      return outcome;
    }
    const [minor, listedAs] =
      outcome.status === 'created'
        ? [outcome.payout.amount, outcome.payout.external_reference]
        : [outcome.transaction.source_amount ?? 0, outcome.transaction.external_reference];
    log(`payout ${outcome.status}: ${externalReference}, NGN ${toMajorUnits('NGN', minor)} deducted`);
    log(`the service lists it as ${listedAs ?? '(no reference)'}`);
    return outcome;
  } catch (error) {
    if (error instanceof PayoutOutcomeUnknownError) {
      log(`outcome unknown for ${error.externalReference}: keep it, alert, and look it up later`);
    }
    throw error;
  }
}

/** On start-up: every payout still pending is looked up first, and sent only if it provably never left. */
export async function resumePending(
  client: PaymentsClient = new Client(),
  log = console.log,
  visibilityWaits?: number[],
) {
  const outcomes = [];
  for (const [invoice, body] of pending) {
    const outcome = await client.payouts.lookupBeforeRetry(body, {
      lookupFirst: true,
      match: sameRemark(body),
      visibilityWaits,
    });
    log(`${invoice}: ${outcome.status} after ${outcome.attempts} POST(s)`);
    pending.delete(invoice);
    outcomes.push(outcome);
  }
  return outcomes;
}

runIfMain(import.meta.url, async () => {
  if (!process.argv.includes('--live')) {
    console.log('This example moves real money: pass --live to run it.');
    return;
  }
  await main();
});
