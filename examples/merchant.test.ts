/**
 * How a merchant tests its own code with the SDK's mock: MSW serves a stateful fake of the API, faults included.
 */
import { setupServer } from 'msw/node';
import { type MajorAmount, PaymentsClient } from 'payments-service-sdk';
import { lookupBeforeRetry } from 'payments-service-sdk/payouts';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

// The merchant's code under test: pays an invoice exactly once.
async function payInvoice(client: PaymentsClient, invoice: { id: string; amount: MajorAmount<'NGN'> }) {
  const beneficiary = { bankCode: '000014', accountNumber: '0123456788' };
  const holder = await client.banks.lookup(beneficiary);
  // The service assigns the reference of an NGN payout, so the listing will not show ours: the remark (the
  // transaction's description) names the invoice, and that is how this merchant recognises its payout.
  const remark = `Invoice ${invoice.id}`;
  return lookupBeforeRetry(
    client,
    {
      amount: invoice.amount,
      currency: 'NGN',
      beneficiary: {
        ...beneficiary,
        accountName: holder.accountName,
        bankName: holder.bankName,
        email: 'ap@x.test',
      },
      remark,
      externalReference: `invoice-${invoice.id}`,
    },
    {
      visibilityWaits: [10, 50],
      match: (tx) => tx.transaction_type === 'withdrawal' && tx.description === remark,
    },
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
    (tx) => tx.description === 'Invoice 1001',
  );
  expect(payouts).toHaveLength(1);
});
