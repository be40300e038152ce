import * as z from 'zod/mini';
import { RequestValidationError } from '../index.js';
import { optionBag } from '../rules/option-bag.js';
import type { VerbOptions } from './api.js';
import { aString } from './option-checks.js';
import type { OutboxRow, PayoutOutboxStore, PayoutRecord, PayoutState } from './types.js';

/**
 * The operator's verbs, each one statement on the store (`reopen`), recorded in the audit trail with who, when and
 * why: `retry` and `resolve` re-open a payout for the workers, `cancel` ends one that never moved.
 */

/** The options of `retry` and `cancel`. */
const verbOptions = optionBag<VerbOptions>({ note: aString, by: aString });
/** The options of `resolve`: what the operator found, required. */
const resolveOptions = optionBag<VerbOptions & { outcome: 'exists' | 'absent' }>({
  ...verbOptions.shape,
  outcome: z.custom((o) => o === 'exists' || o === 'absent', "must be 'exists' or 'absent'"),
});

const invalid = (field: string, message: string) => new RequestValidationError([{ path: [field], message }]);

/** What a verb changes: from which states, to which, and what the trail and `reason` say. */
interface Verb {
  from: PayoutState[];
  to: PayoutState;
  /** The trail's word for it (`retry`, `resolve: exists`, `cancel`). */
  what: string;
  reason: string;
  /** Why it applies to `from` only, in words. */
  only?: string;
}

/** Payouts that never moved money: the ones `cancel` takes. */
export const CANCELLABLE: PayoutState[] = ['pending', 'not_sent', 'refused'];

export function operatorVerbs(
  store: PayoutOutboxStore<unknown>,
  owner: string,
  record: (row: OutboxRow) => Promise<PayoutRecord>,
) {
  /** The verb applied to `reference`, with `given` (its options, read). */
  async function apply(reference: unknown, given: VerbOptions | undefined, verb: Verb) {
    if (typeof reference !== 'string' || reference === '')
      throw invalid('reference', 'must be a non-empty string');
    const by = given?.by || owner;
    const note = given?.note ? `: ${given.note}` : '';
    const attempt = {
      at: new Date().toISOString(),
      kind: 'operator' as const,
      by,
      detail: `${verb.what}${note}`,
    };
    const reopen = verb.to === 'retry';
    const row = await store.reopen(reference, {
      from: verb.from,
      state: verb.to,
      reason: `${verb.reason} (${by}${note})`,
      reopen,
      clearAccepted: reopen,
      attempt,
    });
    if (row) return record(row);
    const current = await store.get(reference);
    if (!current) throw invalid('reference', 'is not in the outbox');
    const only = verb.only ?? '';
    throw invalid(
      'reference',
      `is ${current.state}: ${verb.what} applies to ${verb.from.join(' or ')} payouts only${only}`,
    );
  }

  return {
    async retry(reference: string, options?: VerbOptions): Promise<PayoutRecord> {
      return apply(reference, verbOptions.read(options, 'outbox.retry'), {
        from: ['not_sent', 'refused'],
        to: 'retry',
        what: 'retry',
        reason: 're-opened by an operator: sent again after a lookup',
      });
    },

    async resolve(
      reference: string,
      options: VerbOptions & { outcome: 'exists' | 'absent' },
    ): Promise<PayoutRecord> {
      // None given are read as `{}`, which the bag refuses naming `outcome`.
      const given = resolveOptions.read(options ?? ({} as never), 'outbox.resolve')!;
      return given.outcome === 'exists'
        ? apply(reference, given, {
            from: ['unknown'],
            to: 'recovered',
            what: 'resolve: exists',
            reason: 'an operator found that the payout exists',
          })
        : apply(reference, given, {
            from: ['unknown'],
            to: 'retry',
            what: 'resolve: absent',
            reason: 'an operator found that the payout does not exist: sent again after a lookup',
          });
    },

    async cancel(reference: string, options?: VerbOptions): Promise<PayoutRecord> {
      return apply(reference, verbOptions.read(options, 'outbox.cancel'), {
        from: CANCELLABLE,
        to: 'cancelled',
        what: 'cancel',
        reason: 'cancelled by an operator before anything moved: never sent',
        only: ' (one that may have moved money cannot be cancelled: resolve an unknown one first)',
      });
    },
  };
}
