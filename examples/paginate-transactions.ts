/**
 * Walks every completed transaction of November, page by page, with a running total per currency.
 * Run: PAYMENTS_BASE_URL=... PAYMENTS_API_KEY=... npx tsx examples/paginate-transactions.ts
 */
import { isLegacyTransaction, PaymentsClient } from 'payments-service-sdk';

const client = new PaymentsClient();
const totals = new Map<string, number>();

for await (const tx of client.transactions.list({
  status: 'completed',
  startDate: '2026-11-01',
  endDate: '2026-11-30',
  pageSize: 100,
})) {
  if (isLegacyTransaction(tx)) continue;
  const currency = tx.source_currency ?? 'unknown';
  totals.set(currency, (totals.get(currency) ?? 0) + (tx.source_amount ?? 0));
}

for (const [currency, minor] of totals) console.log(`${currency}: ${minor} (minor units)`);
