import { type PayoutMatch, remarkMatch } from '../index.js';
import type { StepSettings } from './step.js';
import type { OutboxRow } from './types.js';

/**
 * How one step of the outbox finds its payout in the listing (the window, and how a row is recognised), and how
 * it says why a payout was given up. Kept beside `settle.ts`, which decides.
 */

/** What these read of a step. */
interface Sighted {
  settings: StepSettings;
  row: OutboxRow;
  /** Now, by the store's clock. */
  clock: () => number;
}

/**
 * How the listing recognises the payout: by its remark (the key the outbox kept unique), its currency and its
 * amount as sent, for currencies whose listed reference the service assigns; otherwise by its reference.
 */
export function matchOf(s: Sighted): { match?: PayoutMatch } {
  if (s.row.remark_key === null) return {};
  const { body, digits } = s.row.body;
  // Built on the first row judged: a payout whose POST is answered is never looked up.
  let match: PayoutMatch | undefined;
  return {
    match: (row, ref) => {
      if (!match) {
        const wire = s.settings.client.payouts.check(body, { digits });
        match = remarkMatch({ remark: wire.remark!, amount: wire.amount, currency: wire.currency }, digits);
      }
      return match(row, ref);
    },
  };
}

/** Why the payout is `not_sent`: the sends, told apart by what the service said of them. */
export function notSentReason(s: { sends: number }): string {
  return `gave up after ${s.sends} send(s), each proven absent by a lookup`;
}
