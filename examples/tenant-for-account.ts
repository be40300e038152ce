/**
 * A white-label tenant acting for its accounts: list the tenancy, then read each account's transactions with
 * `forAccount`, which sends `X-Account-Id` on every request of the scoped client.
 * Run with PAYMENTS_BASE_URL and PAYMENTS_API_KEY (a tenant key; the mock's is one) set:
 *   node node_modules/payments-service-sdk/examples/tenant-for-account.js
 */
import { PaymentsClient } from 'payments-service-sdk';
import * as z from 'zod/mini';
import { runIfMain } from './run.js';

// The spec does not show an account's fields: say which ones you rely on, and they are typed and checked.
const TenantAccount = z.looseObject({ id: z.string(), name: z.optional(z.string()) });

export async function main(client = new PaymentsClient(), log = console.log) {
  const summary: { id: string; transactions: number }[] = [];
  for await (const account of client.accounts.list({ pageSize: 50 }, { schema: TenantAccount })) {
    const id = account.id;
    const tenant = client.forAccount(id);
    const first = await tenant.transactions.list({ pageSize: 100 });
    summary.push({ id, transactions: first.totalCount ?? first.data.length });
    log(`${account.name ?? id}: ${first.totalCount ?? first.data.length} transactions`);
  }
  return summary;
}

runIfMain(import.meta.url, () => main());
