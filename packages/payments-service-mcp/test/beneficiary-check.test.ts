import { UNKNOWN_ACCOUNT_NUMBER } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BENEFICIARY,
  CANARY_KEY,
  connect,
  data,
  envFor,
  everything,
  paid,
  type Session,
  useMockServer,
} from './helpers.js';

const mock = useMockServer();
let session: Session;
beforeAll(async () => {
  session = await connect(
    envFor(mock.server(), {
      PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,20',
      PAYMENTS_MCP_LISTING_LAG_MS: '0',
    }),
    ['--allow-payouts'],
  );
});
afterAll(async () => {
  expect(session.stderr().includes(CANARY_KEY)).toBe(false);
  await session?.close();
});

/** An NGN payout to `to`, with a name enquiry that agrees with it (as an agent could make one up). */
const ngn = (externalReference: string, to: typeof BENEFICIARY) => ({
  externalReference,
  amount: '100.00',
  currency: 'NGN',
  beneficiary: to,
  nameEnquiry: { accountNumber: to.accountNumber, bankCode: to.bankCode, accountName: to.accountName },
});

describe("send_payout checks the beneficiary by the SDK's verifyBeneficiary", () => {
  it('refuses a bank code GET /banks does not list, and an account no bank knows, sending nothing', async () => {
    const bank = await session.call('send_payout', ngn('mcp-bank-1', { ...BENEFICIARY, bankCode: '999999' }));
    expect(data(bank).error).toMatchObject({
      class: 'BeneficiaryVerificationError',
      reason: 'unknown_bank',
      message: expect.stringContaining(
        'beneficiary.bankCode "999999" is not among the bank codes GET /banks lists now',
      ),
    });
    const unknown = { ...BENEFICIARY, accountNumber: UNKNOWN_ACCOUNT_NUMBER };
    const account = await session.call('send_payout', ngn('mcp-account-1', unknown));
    expect(data(account).error).toMatchObject({
      class: 'BeneficiaryVerificationError',
      reason: 'unknown_account',
    });
    for (const result of [bank, account]) expect(everything(result)).not.toContain(CANARY_KEY);
    expect(paid(mock.server(), 'mcp-bank-1') + paid(mock.server(), 'mcp-account-1')).toBe(0);
  });

  it('pays a holder named with other punctuation and spacing than the bank uses', async () => {
    const to = { ...BENEFICIARY, accountName: 'Adaeze Kemi-Okafor.' };
    const result = await session.call('send_payout', ngn('mcp-name-1', to));
    expect(data(result).status).toBe('created');
    expect(paid(mock.server(), 'mcp-name-1')).toBe(1);
  });
});
