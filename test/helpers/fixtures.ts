/** Fixtures and clock helpers with no MSW import, so the loopback tests can use them too. */

/** Rejection of `promise`, for asserting on the error object itself. */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

/** What `attempt` throws, synchronously or as a rejection. */
export async function thrownBy(attempt: () => unknown): Promise<unknown> {
  try {
    await attempt();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

/** A payout beneficiary the mock's name enquiry resolves (`KNOWN_ACCOUNT_NUMBER` at GTBank). */
export const BENEFICIARY = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: '0123456788',
  bankName: 'Guaranty Trust Bank',
  bankCode: '000013',
  email: 'ada@example.com',
};

/** A 1,000 NGN payout to `BENEFICIARY` under `externalReference`. */
export function ngnPayout(externalReference: string) {
  return { amount: '1000.00', currency: 'NGN', beneficiary: BENEFICIARY, externalReference };
}

export { drive as settle, useFakeClock } from './clock.js';
