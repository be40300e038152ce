/**
 * Walks every completed transaction in a date range, page by page, and totals them per currency.
 * Run: PAYMENTS_BASE_URL=... PAYMENTS_API_KEY=... npx tsx examples/paginate-transactions.ts
 */
import { isLegacyTransaction, PaymentsClient, toMajorUnits } from 'payments-service-sdk';
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
  for (const [currency, minor] of totals) log(`  ${currency} ${toMajorUnits(currency, minor)}`);
  return { count, totals };
}

runIfMain(import.meta.url, () => main());
