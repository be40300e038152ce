/**
 * What a ```ts run``` block of the docs may take as given: loaded before the block (`node --import`), it defines
 * `client` and each name the block `declare`s (DOC_SNIPPET_DECLARES), as your own code would. A block that
 * declares any other name fails before it runs (scripts/doc-snippets.mjs). Everything here talks to the mock the
 * block runs against (PAYMENTS_BASE_URL, PAYMENTS_API_KEY), and none of it sends a payout: the block's own
 * payouts are the ones counted.
 */
import { createExternalReference, PaymentsClient } from 'payments-service-sdk';
import { createPayoutOutbox, memoryOutboxStore } from 'payments-service-sdk/outbox';

/** The holder the mock's name enquiry returns for its known account. */
const beneficiary = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: '0123456788',
  bankName: 'Access Bank',
  bankCode: '000014',
  email: 'ap@supplier.example',
};

/** Your database, for blocks that call it: every method resolves, and nothing is kept (not a thenable). */
const database = new Proxy({}, { get: (_, name) => (name === 'then' ? undefined : async () => undefined) });

/** Each fixture by the name a block declares; a function, so only what a block declares is made. */
export const FIXTURES = {
  beneficiary: () => beneficiary,
  /** An earlier payout's answer (NGN 2,500.00 with a 1 % fee): amounts in minor units. */
  previous: () => ({
    id: 'b7f0c6de-2f5c-4a55-9d0e-0d9f1a2b3c4d',
    amount: 252_500,
    destination_amount: 250_000,
    fee_amount: 2_500,
    currency: 'NGN',
    external_reference: 'PO-20260101-EARLIER01',
    created_at: new Date(Date.now() - 86_400_000).toISOString(),
  }),
  db: () => database,
  invoiceId: () => 'inv-1001',
  invoice: () => ({ id: '1001' }),
  resuming: () => false,
  row: () => ({ createdAt: new Date(Date.now() - 60_000) }),
  externalReference: () => createExternalReference('inv'),
  invoices: () => ({ markPaid: async () => {}, reopen: async () => {} }),
  emailVendor: () => async () => {},
  /** An outbox on a memory store holding one NGN payout, enqueued and not yet sent: the block settles it. */
  outbox: async () => {
    const outbox = createPayoutOutbox({ client: new PaymentsClient(), store: memoryOutboxStore() });
    const remark = `Invoice ${createExternalReference('fixture').slice(-8)}`;
    await outbox.enqueue({ amount: '2500.00', currency: 'NGN', beneficiary, remark });
    return outbox;
  },
};

// Loaded as a block's prelude (doc-snippets always sets the variable, empty when nothing is declared).
if (process.env.DOC_SNIPPET_DECLARES !== undefined) {
  globalThis.client = new PaymentsClient();
  for (const name of process.env.DOC_SNIPPET_DECLARES.split(',').filter(Boolean)) {
    globalThis[name] = await FIXTURES[name]();
  }
}
