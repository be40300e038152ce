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

/**
 * The lookup window, by the store's clock: from the first send (or the row's creation). Every POST is marked
 * before it leaves, so the recorded sends bound its end (the last mark, plus the time a POST may start after its
 * mark, plus its timeout), re-opened rows too. It
 * is left open to the service's now where a mark may be missing (a failover that may lose one; a row of the
 * first table version, which kept no times), and it is widened by any disagreement a lookup measured between the
 * store's clock and the service's, since the recorded times may be off by as much.
 */
export function windowOf(s: Sighted & { clockDoubt: number }) {
  const { row, settings, clockDoubt } = s;
  const ours = !settings.lookupBeforeFirstSend && row.last_sent_at !== null && clockDoubt === 0;
  return {
    clock: s.clock,
    since: new Date((row.first_sent_at ?? row.created_at) - clockDoubt),
    // A POST leaves at most `leaseMs - guardMs` after the statement that marked it (the claim's, or the mark's
    // right before it), and ends within its timeout.
    ...(ours
      ? { until: new Date(row.last_sent_at! + settings.leaseMs - settings.guardMs + settings.timeout) }
      : {}),
  };
}

/** Why the payout is `not_sent`: the sends, told apart by what the service said of them. */
export function notSentReason(s: { sends: number; answered: number }): string {
  const cut = s.sends - s.answered;
  const answered = `${s.answered} POST(s) answered without taking the payout (429, 503)`;
  const rest = cut > 0 ? `, ${cut} cut off before an answer` : '';
  return `gave up after ${s.sends} send(s): ${answered}${rest}; each proven absent by a lookup`;
}
