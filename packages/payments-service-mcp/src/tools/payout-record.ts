import { type PayoutCreateParams, RequestValidationError } from 'payments-service-sdk';
import { type EnqueueResult, OPEN_STATES, type PayoutOutbox } from 'payments-service-sdk/outbox';
import type { CallExtra, ToolContext } from '../context.js';
import { PayoutRefusedError } from '../format.js';
import type { PayoutFacts } from '../guards/guards.js';

/**
 * The step of `send_payout` between its checks and its drive: the guards that need the record (is this payout
 * new? then the daily cap, then a person's yes), and the record itself. Calls for one payout (account and
 * reference) take turns here, so that while a person is asked about the first call, a duplicate waits for the
 * answer instead of asking too or racing it into the record; after the first call's turn it finds the record and
 * shares its payout. A duplicate of a call the person declined finds no record, and is asked about on its own: a
 * person's no answers one question, and guessing which later call "is the same" would let a yes or a no leak
 * to a call it was not given for.
 */

/** One call's payout, checked: the body the outbox records, and the facts the guards read. */
export interface RecordCall {
  outbox: PayoutOutbox;
  payout: PayoutCreateParams & { externalReference: string };
  facts: PayoutFacts;
  extra: CallExtra;
  /**
   * The checks of a payout about to be sent (the caps, the allowlist, the bank's name enquiry): run for a new
   * payout and for one sent again, never for a repeat of one recorded, which is answered from its record
   * whatever the guards say now.
   */
  check: () => Promise<void>;
}

/** The outbox's refusal of other details under a recorded reference, as this tool words refusals. */
function otherDetails(reference: string) {
  return (error: unknown): never => {
    if (error instanceof RequestValidationError && error.field === 'externalReference') {
      throw new PayoutRefusedError(
        `payout ${reference} was recorded with other details (${error.message.replace(/^.*?differs in /, 'it differs in ')}); nothing was sent for this call`,
      );
    }
    throw error;
  };
}

/** Records calls' payouts; resolves to whether the call repeats a payout already final (nothing will be sent). */
export function payoutRecorder(ctx: ToolContext): (call: RecordCall) => Promise<boolean> {
  const turns = new Map<string, Promise<boolean>>();

  /** New: the daily cap, a person's yes, then the record. Recorded: compared. Moved nothing: sent again. */
  async function decide({ outbox, payout, facts, extra, check }: RecordCall): Promise<boolean> {
    const { guards, tableFor } = ctx.records();
    const ref = facts.reference;
    let queued: EnqueueResult;
    if ((await outbox.get(ref)) === undefined) {
      await check();
      guards.withinDailyCap(facts);
      await guards.confirm(ctx.server.server, extra, facts);
      queued = await guards
        // Checked by `check` above: the record's transaction must not wait on the bank.
        .record(facts, tableFor(facts.account), (tx) =>
          outbox.enqueue(payout, { tx, verifyBeneficiary: false }),
        )
        .catch(otherDetails(ref));
    } else {
      // The same payout again (amount and names compared as parsed) finds its record; other details are refused.
      queued = await outbox.enqueue(payout, { verifyBeneficiary: false }).catch(otherDetails(ref));
    }
    const before = queued.enqueued ? undefined : queued.record.state;
    if (before === 'not_sent' || before === 'refused') {
      // Nothing moved before: called again, it is sent again (after a lookup), as a new payout is.
      await check();
      guards.withinDailyCap(facts);
      await guards.confirm(ctx.server.server, extra, facts);
      await guards
        .recount(facts, () =>
          outbox.retry(ref, { by: 'payments-service-mcp', note: 'send_payout was called again' }),
        )
        .catch(async (error: unknown) => {
          // Another call or process re-opened it meanwhile: it is being sent; this call follows it.
          const now = await outbox.get(ref);
          if (!now || !(OPEN_STATES as readonly string[]).includes(now.state)) throw error;
        });
    }
    // Final before this call (and not re-opened by it): the answer is the record's, and nothing is sent. A payout
    // an operator cancelled stays cancelled: only the outbox's console re-opens what a person closed.
    return before === 'created' || before === 'recovered' || before === 'unknown' || before === 'cancelled';
  }

  return async (call) => {
    const key = `${call.facts.account}\u0000${call.facts.reference}`;
    const previous = turns.get(key);
    // After the call before it, whatever became of it: a payout it recorded is then found and shared.
    const done = (previous ?? Promise.resolve()).then(
      () => decide(call),
      () => decide(call),
    );
    turns.set(key, done);
    try {
      return await done;
    } finally {
      if (turns.get(key) === done) turns.delete(key);
    }
  };
}
