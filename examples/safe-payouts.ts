/**
 * A payout that is safe to retry and safe across a restart, without the outbox: the whole body (reference and
 * remark included) is saved before it is sent; `lookupBeforeRetry` looks it up after any doubt instead of paying
 * twice; a payout proven not sent stays saved and is sent again, under the same reference, by a later run; and
 * after a crash `resumePending` takes every saved payout up again, looking before it sends.
 *
 *   npx payments-service-sdk mock     # then paste its two lines, and:
 *   node node_modules/payments-service-sdk/examples/safe-payouts.js
 *
 * Against a real server this moves money: it runs only with --live there.
 */
import {
  createExternalReference,
  PaymentsClient,
  type PayoutCreateParams,
  PayoutOutcomeUnknownError,
  remarkMatch,
  toMajorUnits,
} from 'payments-service-sdk';
import { lookupBeforeRetry } from 'payments-service-sdk/payouts';
import { runIfMain, writesAllowed } from './run.js';

/** A payout as saved before it is sent: the body with its reference and its remark, unique to this payout. */
export type SavedPayout = PayoutCreateParams & { externalReference: string; remark: string };

/** A row of your payouts table: the body, who may work on it until when, and what paid it. */
export interface PayoutRow {
  body: SavedPayout;
  /** Epoch ms until which one worker holds the row; 0 when none does. */
  leaseUntil: number;
  /** Set once the payout exists (created or recovered): the service's id and the reference it is listed under. */
  paid?: { payoutId: string; listedAs: string | undefined };
}

/**
 * Stands in for your database table. One worker at a time works on a row, under a lease: an expiry written to the
 * row (`UPDATE payouts SET lease_until = now() + $1 WHERE invoice = $2 AND paid_id IS NULL AND lease_until <
 * now() RETURNING body`), longer than a call can send for. Not a row lock held for the whole call: a lock ends
 * with its database connection, and a worker whose connection dropped may still send while another takes the
 * row (docs/payouts-at-scale.md, "One owner per payout"). payments-service-sdk/outbox does all of this for you.
 */
export const payouts = new Map<string, PayoutRow>();

/** No POST starts after `totalTimeout`; with one POST's `timeout` on top, the lease outlasts every send. */
const CALL = { totalTimeout: 60_000, timeout: 30_000 };
const LEASE_MS = CALL.totalTimeout + CALL.timeout + 30_000;

/** Waits and listing lag for a test that is not about them (`{ visibilityWaits: [0], listingLagMs: 0 }`). */
export interface Tuning {
  visibilityWaits?: number[];
  listingLagMs?: number;
}

/** Saves a payout to make, before anything is sent. */
export function savePayout(invoice: string, body: SavedPayout): void {
  payouts.set(invoice, { body, leaseUntil: 0 });
}

/** The row, leased to this worker; undefined when it is paid, or another worker holds it. */
function takeLease(invoice: string, now = Date.now()): PayoutRow | undefined {
  const row = payouts.get(invoice);
  if (!row || row.paid || row.leaseUntil > now) return undefined;
  row.leaseUntil = now + LEASE_MS;
  return row;
}

/** Sends one saved payout under its lease (`resuming`: looks first). The row stays until the payout exists. */
async function settle(
  client: PaymentsClient,
  invoice: string,
  resuming: boolean,
  log: (line: string) => void,
  tuning: Tuning,
) {
  const row = takeLease(invoice);
  if (!row) return undefined;
  const { body } = row;
  try {
    const outcome = await lookupBeforeRetry(client, body, {
      ...CALL,
      ...tuning,
      // NGN: the listing shows the service's reference, not ours; the payout is recognised by its remark.
      match: remarkMatch(body),
      lookupFirst: resuming,
    });
    if (outcome.status === 'not_sent') {
      // Proven absent: nothing moved. The row stays: a later run sends it again, under the same reference.
      log(`${invoice}: not sent (${outcome.reason}); kept for a later run`);
      return outcome;
    }
    const payout = outcome.status === 'created' ? outcome.payout : outcome.transaction;
    const deducted = outcome.status === 'created' ? outcome.payout.amount : outcome.transaction.source_amount;
    row.paid = { payoutId: payout.id, listedAs: payout.external_reference }; // paid exactly once
    log(
      `${invoice}: ${outcome.status} after ${outcome.attempts} POST(s), ${body.currency} ` +
        `${toMajorUnits(body.currency, deducted ?? 0)} deducted, listed as ${payout.external_reference ?? '-'}`,
    );
    return outcome;
  } catch (error) {
    // Not known either way: the row stays; alert, and resume it later. Never send it under a new reference.
    if (error instanceof PayoutOutcomeUnknownError)
      log(`${invoice}: outcome unknown (${error.reason}); kept`);
    throw error;
  } finally {
    row.leaseUntil = 0; // released: the next run may take it
  }
}

/** Saves a payout to a supplier, then sends it. */
export async function main(client = new PaymentsClient(), log = console.log, tuning: Tuning = {}) {
  const holder = await client.banks.lookup({ bankCode: '000014', accountNumber: '0123456788' }); // name enquiry
  const externalReference = createExternalReference('inv');
  const body: SavedPayout = {
    amount: '2500.00', // MAJOR units, with NGN's two minor digits (or amountMinor: 250000, in kobo)
    currency: 'NGN',
    beneficiary: { ...holder, email: 'ap@supplier.example' }, // only the five fields the spec names are sent
    remark: `Payout ${externalReference}`, // unique: the listing shows it as the payout's description
    externalReference,
  };
  client.payouts.check(body); // every check create makes, before the row is saved
  savePayout('invoice-1001', body);
  return settle(client, 'invoice-1001', false, log, tuning);
}

/** On start-up: every saved payout not yet paid is looked up first, and sent only if it provably never left. */
export async function resumePending(client = new PaymentsClient(), log = console.log, tuning: Tuning = {}) {
  const outcomes = [];
  for (const invoice of payouts.keys()) {
    const outcome = await settle(client, invoice, true, log, tuning);
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}

runIfMain(import.meta.url, async () => {
  if (!writesAllowed()) {
    console.log(
      'This example moves money: run it against the mock (npx payments-service-sdk mock), or pass --live.',
    );
    return;
  }
  await main();
  await resumePending(); // what a restart runs: here, nothing is left to send
});
