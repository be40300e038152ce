/**
 * A tour of the SDK: banks and name enquiry, a saved beneficiary, a payout that survives a dropped connection,
 * a slip of the amount's unit refused by a payout ceiling, that payout (and a cross-border wire) followed to its
 * final status and UETR, `for await` over the transaction history with totals per currency, a tenant acting for
 * an account, and a payer name with a document.
 *
 *   node node_modules/payments-service-sdk/examples/quickstart.js
 *
 * With no PAYMENTS_BASE_URL it starts the bundled mock in this process (the tour's dropped connection included).
 * With PAYMENTS_BASE_URL and PAYMENTS_API_KEY set (the two lines `npx payments-service-sdk mock` prints) it runs
 * against that server, writing (money above all) only against the mock or with --live. `npm run demo` runs it.
 */
import {
  createExternalReference,
  currencyDigits,
  isLegacyTransaction,
  PaymentsClient,
  PaymentsError,
  type PayoutMatch,
  RequestValidationError,
  toMajorUnits,
} from 'payments-service-sdk';
import { lookupBeforeRetry } from 'payments-service-sdk/payouts';
import { DEFAULT_API_KEY, type PaymentsMock, startMockServer } from 'payments-service-sdk/testing';
import { createPayerNameWithDocuments } from 'payments-service-sdk/uploads';
import { SAMPLE_PDF } from './payer-name-with-documents.js';
import { payoutLife, scheduleLives } from './payout-life.js';
import { runIfMain, writesAllowed } from './run.js';

export interface QuickstartContext {
  client: PaymentsClient;
  /** Present when running against the bundled mock: used to inject a fault and play the reviewer. */
  mock?: PaymentsMock;
  /** Writes (beneficiary, payout, payer name) are made only against the mock or with --live. */
  allowWrites: boolean;
  log: (line: string) => void;
  /** Waits before each lookup; short against the mock so the demo stays quick. */
  visibilityWaits?: number[];
}

// USDC and USDT have no smallest unit in the spec: they are shown in minor units rather than guessed.
const money = (currency: string, minor: number) =>
  currencyDigits(currency) === undefined
    ? `${currency} ${minor} minor units`
    : `${currency} ${toMajorUnits(currency, minor)}`;

/**
 * How this merchant recognises its NGN payouts. The spec: lookup-before-retry uses the caller's
 * `externalReference` "except NGN and mobile money payouts, where the service assigns the reference", so an NGN
 * payout is listed under the service's reference, not ours. `remark` is the transaction's description, and
 * ours names our own reference, so it is unique: a withdrawal with that description is this payout.
 */
export const byRemark =
  (remark: string): PayoutMatch =>
  (tx) =>
    tx.transaction_type === 'withdrawal' && tx.description === remark;

export async function quickstart({ client, mock, allowWrites, log, visibilityWaits }: QuickstartContext) {
  log('1. Banks and name enquiry');
  const banks = await client.banks.list();
  const bank = banks.find((b) => b.bankName.startsWith('Access')) ?? banks[0];
  if (!bank) throw new PaymentsError('no banks listed');
  log(`   ${banks.length} banks, e.g. ${bank.bankName} (${bank.bankCode})`);
  const accountNumber = process.env.PAYMENTS_DEMO_ACCOUNT_NUMBER ?? '0123456788';
  const holder = await client.banks.lookup({ bankCode: bank.bankCode, accountNumber });
  log(`   ${accountNumber} at ${holder.bankName} belongs to ${holder.accountName}`);

  if (allowWrites) {
    log('2. Save a beneficiary');
    const saved = await client.beneficiaries.create({
      currency: 'NGN',
      account_name: holder.accountName,
      account_number: accountNumber,
      bank_name: holder.bankName,
      bank_code: bank.bankCode,
      label: 'Demo supplier',
    });
    log(`   saved ${saved.id} (${saved.label}), rail: ${saved.withdrawal_method ?? 'NGN bank transfer'}`);

    log('3. A payout that survives a dropped connection');
    scheduleLives(mock);
    mock?.faults.dropAfterCommit('POST /payouts');
    if (mock) log('   (the mock will store the payout, then cut the connection)');
    const externalReference = createExternalReference('demo');
    // Unique per payout: the listing shows it as the description, which is how we recognise an NGN payout.
    const remark = `Demo invoice ${externalReference}`;
    const outcome = await lookupBeforeRetry(
      client,
      {
        amount: '2500.00',
        currency: 'NGN',
        beneficiary: {
          accountName: holder.accountName,
          accountNumber,
          bankName: holder.bankName,
          bankCode: bank.bankCode,
          email: 'supplier@example.com',
        },
        remark,
        externalReference,
      },
      {
        visibilityWaits,
        // NGN: the service assigns the listed reference, so look for our remark instead.
        match: byRemark(remark),
        onAttempt: (e) => {
          if (e.type === 'post') log(`   POST /payouts, attempt ${e.attempt}`);
          if (e.type === 'ambiguous')
            log(`   no answer (${(e.error as Error).name}): looking it up before any retry`);
          if (e.type === 'lookup')
            log(`   lookup after ${e.waitedMs} ms: ${e.found ? 'found' : 'not there yet'}`);
        },
      },
    );
    if (outcome.status === 'not_sent') {
      log(`   not sent: ${outcome.reason}; nothing moved, send ${externalReference} again later`);
    } else {
      // Response amounts are in minor units, and the total deducted includes the fee (the mock's is 1 %).
      const [deducted, fee, listedAs] =
        outcome.status === 'created'
          ? [outcome.payout.amount, outcome.payout.fee_amount, outcome.payout.external_reference]
          : [
              outcome.transaction.source_amount ?? 0,
              outcome.transaction.fee_amount ?? 0,
              outcome.transaction.external_reference,
            ];
      log(
        `   ${outcome.status}: ${externalReference}, ${money('NGN', deducted)} deducted ` +
          `(${money('NGN', deducted - fee)} payout + ${money('NGN', fee)} fee), one payout`,
      );
      log(`   recognised by its remark; the service listed it as ${listedAs ?? '(no reference)'}`);
      log("3b. A payout's life: followed in the listing to its final status, and a wire to its UETR");
      const found = outcome.status === 'created' ? outcome.payout : outcome.transaction;
      const beneficiary = {
        accountName: holder.accountName,
        accountNumber,
        bankName: holder.bankName,
        bankCode: bank.bankCode,
        email: 'supplier@example.com',
      };
      const ngn = { externalReference, match: byRemark(remark), found };
      await payoutLife({ client, mock, log, ngn, beneficiary, visibilityWaits });
    }
    // The same payout with its amount written in kobo where naira are meant: 100 times too much. A ceiling
    // (`payoutLimits`) refuses it before anything is sent; `check` runs every check `create` makes, and sends nothing.
    const guarded = client.withOptions({ payoutLimits: { NGN: '100000.00' } });
    try {
      guarded.payouts.check({
        amount: '250000.00',
        currency: 'NGN',
        beneficiary: { ...holder, email: 'a@b.co' },
      });
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      log(`   a slip of the unit is refused before it leaves: ${error.message}`);
    }
  } else {
    log('2-3. Beneficiary and payout skipped: pass --live to write to a real server');
  }

  log('4. Transaction history with for await');
  let count = 0;
  const byType = new Map<string, number>();
  // Minor units per currency: kobo, cents and francs never add up to one number.
  const received = new Map<string, number>();
  for await (const tx of client.transactions.list({ pageSize: 100 })) {
    count++;
    const type = isLegacyTransaction(tx) ? tx.type : tx.transaction_type;
    byType.set(type, (byType.get(type) ?? 0) + 1);
    if (isLegacyTransaction(tx) || tx.transaction_type !== 'deposit' || tx.status !== 'completed') continue;
    const currency = tx.destination_currency ?? tx.source_currency;
    if (currency) received.set(currency, (received.get(currency) ?? 0) + (tx.destination_amount ?? 0));
  }
  log(
    `   ${count} transactions (${[...byType].map(([t, n]) => `${n} ${t}`).join(', ')}); failed ones only on request`,
  );
  log(
    `   received: ${[...received].map(([currency, minor]) => money(currency, minor)).join(', ') || 'nothing'}`,
  );

  log('5. Acting for a tenant account');
  const accounts = await client.accounts.list({ pageSize: 10 });
  const account = accounts.data[0];
  if (account) {
    const tenant = client.forAccount(String(account.id));
    const page = await tenant.transactions.list({ pageSize: 5 });
    log(
      `   ${String(account.name ?? account.id)}: ${page.totalCount ?? page.data.length} transactions (X-Account-Id)`,
    );
  } else {
    log('   no accounts in this tenancy');
  }

  if (allowWrites) {
    log('6. A payer name with a document');
    const created = await createPayerNameWithDocuments(client, {
      entity_type: 'business',
      display_name: `Demo Payouts ${Date.now().toString(36)}`,
      country: 'NG',
      address_line: '1 Marina Road',
      city: 'Lagos',
      state_province: 'Lagos',
      documents: [
        { file: SAMPLE_PDF, fileName: 'certificate.pdf', description: 'Certificate of incorporation' },
      ],
    });
    log(`   submitted "${created.name}": ${created.status}, ${created.documents.length} document streamed`);
    if (mock && created.status === 'pending_review') {
      mock.payerNames.review(created.id, 'approve');
      const named = await client.payerNames.setDefault(created.id);
      log(
        `   approved by the mock's reviewer and made default: ${named.status}, isDefault ${named.isDefault}`,
      );
    }
  }
  log('Done.');
}

/**
 * The tour as a program: against PAYMENTS_BASE_URL when it is set (writes only against the mock, whose key is
 * `sk_test_mock`, or with --live), else against the bundled mock started in this process.
 */
export async function main(log: (line: string) => void = console.log) {
  if (process.env.PAYMENTS_BASE_URL) {
    const client = new PaymentsClient();
    const allowWrites = writesAllowed();
    log(`Against ${client.baseUrl}${allowWrites ? ' (writes enabled)' : ' (read-only; --live to write)'}\n`);
    await quickstart({ client, allowWrites, log });
    return;
  }
  const server = await startMockServer({ port: 0 });
  log(`Against the bundled mock at ${server.baseUrl} (no API key or network needed)\n`);
  try {
    const client = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: server.baseUrl,
      logLevel: 'error',
    });
    await quickstart({ client, mock: server.mock, allowWrites: true, log, visibilityWaits: [100, 400] });
  } finally {
    await server.close();
  }
}

runIfMain(import.meta.url, () => main());
