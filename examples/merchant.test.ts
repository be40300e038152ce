/**
 * How a merchant tests its own code with the SDK's mock: MSW serves a stateful fake of the API, faults included.
 */
import { setupServer } from 'msw/node';
import { PaymentsClient } from 'payments-service-sdk';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

// The merchant's code under test: pays an invoice exactly once.
async function payInvoice(client: PaymentsClient, invoice: { id: string; amount: string }) {
  const beneficiary = { bankCode: '000014', accountNumber: '0123456788' };
  const holder = await client.banks.lookup(beneficiary);
  return client.payouts.lookupBeforeRetry(
    {
      amount: invoice.amount,
      currency: 'NGN',
      beneficiary: {
        ...beneficiary,
        accountName: holder.accountName,
        bankName: holder.bankName,
        email: 'ap@x.test',
      },
      externalReference: `invoice-${invoice.id}`,
    },
    { visibilityWaits: [10, 50] },
  );
}

const mock = createPaymentsMock();
const server = setupServer(...mock.handlers);
// Any request without a handler fails the test. msw 3 calls the option onUnhandledFrame; on msw 2 write
// server.listen({ onUnhandledRequest: 'error' }).
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());
const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, logLevel: 'off' });

it('pays once even when the connection drops after the payout was made', async () => {
  mock.faults.dropAfterCommit('POST /payouts');
  const outcome = await payInvoice(client, { id: '1001', amount: '2500.00' });
  expect(outcome.status).toBe('recovered');
  const payouts = (await client.transactions.list({ pageSize: 100 }).toArray()).filter(
    (tx) => 'external_reference' in tx && tx.external_reference === 'invoice-1001',
  );
  expect(payouts).toHaveLength(1);
});
