import { optionKeys } from '../core/option-keys.js';
import { refuseUnknownKeys } from '../core/unknown-option.js';
import { RequestValidationError } from '../index.js';
import type { VerbOptions } from './api.js';
import type { OutboxRow, PayoutOutboxStore, PayoutRecord, PayoutState } from './types.js';

/**
 * The operator's verbs, each one statement on the store (`reopen`), recorded in the audit trail with who, when and
 * why: `retry` and `resolve` re-open a payout for the workers, `cancel` ends one that never moved.
 */

const VERB_KEYS = optionKeys<VerbOptions & { outcome?: unknown }>()(['note', 'by', 'outcome']);

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
  async function apply(reference: unknown, given: VerbOptions | undefined, verb: Verb) {
    if (typeof reference !== 'string' || reference === '')
      throw invalid('reference', 'must be a non-empty string');
    for (const field of ['by', 'note'] as const) {
      if (given?.[field] !== undefined && typeof given[field] !== 'string')
        throw invalid(field, 'must be a string');
    }
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
    async retry(reference: string, given: VerbOptions = {}): Promise<PayoutRecord> {
      refuseUnknownKeys(given, VERB_KEYS, 'outbox.retry');
      return apply(reference, given, {
        from: ['not_sent', 'refused'],
        to: 'retry',
        what: 'retry',
        reason: 're-opened by an operator: sent again after a lookup',
      });
    },

    async resolve(
      reference: string,
      given: VerbOptions & { outcome: 'exists' | 'absent' },
    ): Promise<PayoutRecord> {
      refuseUnknownKeys(given, VERB_KEYS, 'outbox.resolve');
      if (given?.outcome !== 'exists' && given?.outcome !== 'absent')
        throw invalid('outcome', "must be 'exists' or 'absent'");
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

    async cancel(reference: string, given: VerbOptions = {}): Promise<PayoutRecord> {
      refuseUnknownKeys(given, VERB_KEYS, 'outbox.cancel');
      return apply(reference, given, {
        from: CANCELLABLE,
        to: 'cancelled',
        what: 'cancel',
        reason: 'cancelled by an operator before anything moved: never sent',
        only: ' (one that may have moved money cannot be cancelled: resolve an unknown one first)',
      });
    },
  };
}
