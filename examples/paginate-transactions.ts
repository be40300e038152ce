/**
 * Walks every completed transaction in a date range, page by page, and totals them per currency.
 * Run with PAYMENTS_BASE_URL and PAYMENTS_API_KEY set (`npx payments-service-sdk mock` prints both for its mock):
 *   node node_modules/payments-service-sdk/examples/paginate-transactions.js
 */
import { currencyDigits, isLegacyTransaction, PaymentsClient, toMajorUnits } from 'payments-service-sdk';
import { runIfMain } from './run.js';

export async function main(client = new PaymentsClient(), log = console.log) {
  const totals = new Map<string, number>();
  let count = 0;
  for await (const tx of client.transactions.list({
    status: 'completed',
    startDate: '2025-01-01',
    endDate: '2026-12-31',
    pageSize: 100,
  })) {
    count++;
    if (isLegacyTransaction(tx)) continue;
    const currency = tx.source_currency ?? 'unknown';
    totals.set(currency, (totals.get(currency) ?? 0) + (tx.source_amount ?? 0));
  }
  log(`${count} completed transactions`);
  for (const [currency, minor] of totals) {
    // The spec does not state the smallest unit of USDC or USDT: show those in minor units (or pass your
    // account's digits as toMajorUnits' third argument).
    const shown =
      currencyDigits(currency) === undefined ? `${minor} minor units` : toMajorUnits(currency, minor);
    log(`  ${currency} ${shown}`);
  }
  return { count, totals };
}

runIfMain(import.meta.url, () => main());
