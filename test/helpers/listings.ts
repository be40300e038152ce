import type { PaymentsMock } from '../../src/testing/index.js';

/**
 * `n` completed USD withdrawals of other references, dated after `from` (default: now). The listing is newest
 * first, so a payout sent now is listed after them: a lookup must read past page 1 to find it.
 */
export function newerWithdrawals(mock: PaymentsMock, n: number, from = Date.now()): void {
  for (let i = 0; i < n; i++) {
    const at = new Date(from + (i + 1) * 1000).toISOString();
    mock.account().transactions.push({
      visibleAt: 0,
      row: {
        id: `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`,
        transaction_type: 'withdrawal',
        status: 'completed',
        description: `other ${i}`,
        external_reference: `other-${i}`,
        fee_amount: 1,
        source_amount: 2,
        destination_amount: 1,
        source_currency: 'USD',
        destination_currency: 'USD',
        created_at: at,
        updated_at: at,
      },
    });
  }
}
