/** Every transaction status the spec lists. */
export const TRANSACTION_STATUSES = [
  'draft',
  'pending',
  'processing',
  'completed',
  'sent',
  'failed',
  'rejected',
  'refunded',
  'negotiating',
  'cancelled',
  'exception',
] as const;

/** Deposit rails the spec lists for `payment_rail`. */
export const PAYMENT_RAILS = ['ach', 'wire_domestic', 'wire_international', 'mobile_money'] as const;
