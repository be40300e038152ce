import { ownField } from '../core/own.js';
import {
  BeneficiaryVerificationError,
  createExternalReference,
  type PayoutCreateParams,
  RequestValidationError,
} from '../index.js';
import { remarkIssue, remarkKey } from '../payouts/proof/payout-identity.js';
import { checksBeneficiary } from '../rules/beneficiary-check.js';
import { aBoolean, anyValue, optionBag } from '../rules/option-bag.js';
import type { EnqueueOptions, EnqueueResult } from './api.js';
import { differences } from './equality.js';
import { currencyCode, type PayoutOutboxClient } from './options.js';
import { EMPTY_ROW } from './record.js';
import { answerFromTombstone } from './tombstones.js';
import type { OutboxRow, PayoutOutboxStore, PayoutRecord, StoredBody } from './types.js';

/**
 * The options of `enqueue`. `digits` is checked by `payouts.check`, where its meaning (the currency's) is known;
 * `tx` by the store, which knows its handles (and is used as given: its identity is the caller's transaction).
 */
const enqueueOptions = optionBag<EnqueueOptions>({
  tx: anyValue,
  digits: anyValue,
  verifyBeneficiary: aBoolean,
});
const NO_VERIFY =
  'must be a PaymentsClient: payouts.verify, which checks a beneficiary before it is recorded, is missing';
const invalid = (field: string, message: string) => new RequestValidationError([{ path: [field], message }]);

/** What `enqueue` needs: the client's checks, the store, and a row as its record. */
interface EnqueueDeps<Tx> {
  client: PayoutOutboxClient;
  store: PayoutOutboxStore<Tx>;
  record: (row: OutboxRow) => Promise<PayoutRecord>;
}

/**
 * The outbox's `enqueue`: the body checked as `payouts.create` checks it, the beneficiary verified where
 * `verifyBeneficiary` is on (before anything is written), then the row inserted, or the record a repeat finds.
 */
export function enqueuer<Tx>({ client, store, record }: EnqueueDeps<Tx>) {
  /**
   * The row as recorded, checked by the client as `payouts.create` checks it (its `payoutLimits` included), so a
   * refused payout is never recorded; throws before anything is written.
   */
  const rowOf = (body: PayoutCreateParams<string>, given: EnqueueOptions<Tx> | undefined): OutboxRow => {
    const wire = client.payouts.check(body, { digits: given?.digits });
    const reference = wire.externalReference ?? createExternalReference('payout');
    const currency = currencyCode(wire.currency);
    const { stored, assigned } = storedOf(body, reference, currency, given);
    if (assigned) {
      const problem = remarkIssue(stored.body.remark);
      if (problem) throw invalid('remark', problem);
    }
    return {
      ...EMPTY_ROW,
      reference,
      currency,
      body: stored,
      remark_key: assigned ? remarkKey(stored.body.remark!) : null,
    };
  };

  /** The body as recorded. Listed under a reference the service assigns: recognised by a remark of its own. */
  const storedOf = (
    body: PayoutCreateParams<string>,
    reference: string,
    currency: string,
    given: EnqueueOptions<Tx> | undefined,
  ) => {
    const assigned = client.payouts.assignsReference(currency);
    const remark = assigned ? (body.remark ?? reference) : body.remark;
    const stored: StoredBody = {
      body: { ...body, externalReference: reference, ...(remark === undefined ? {} : { remark }) },
      ...(given?.digits === undefined ? {} : { digits: given.digits }),
    };
    return { stored, assigned };
  };

  /**
   * A body the client refuses now (a `payoutLimits` lowered since, say) may be a payout recorded earlier: the same
   * payout under its reference is answered with its record, as any repeat is (it was checked when it was
   * recorded, and may have moved money since). Anything else is the refusal.
   */
  const recordedAlready = async (
    body: PayoutCreateParams<string>,
    given: EnqueueOptions<Tx> | undefined,
    refusal: unknown,
  ): Promise<EnqueueResult> => {
    const reference = (body as { externalReference?: unknown } | null)?.externalReference;
    const refusedNow =
      refusal instanceof RequestValidationError || refusal instanceof BeneficiaryVerificationError;
    if (!refusedNow || typeof reference !== 'string') throw refusal;
    const existing = await store.get(reference);
    const archived = existing ? undefined : await store.tombstone(reference);
    const recorded = existing ?? archived?.row;
    if (!recorded) throw refusal;
    const { stored } = storedOf(body, reference, recorded.currency, given);
    if (differences(recorded.body, stored).length > 0) throw refusal;
    if (archived) return answerFromTombstone(archived, stored);
    return { reference, enqueued: false, record: await record(existing!) };
  };

  /** Records the row checked: inserted now, or what the outbox already holds under its reference. */
  const insertRow = (row: OutboxRow, given: EnqueueOptions<Tx> | undefined): Promise<EnqueueResult> =>
    // Called before any await: with SQLite, the insert runs inside the caller's open transaction.
    store.insert(row, given?.tx).then(async (result) => {
      if (result.inserted)
        return { reference: row.reference, enqueued: true, record: await record(result.row) };
      if ('remarkTakenBy' in result) {
        const message = `is the remark of payout ${result.remarkTakenBy}, recorded earlier: ${row.currency} payouts are listed under a reference the service assigns, so each is recognised by its remark (compared ignoring case and spacing), which must stay unique: give this payout a remark of its own`;
        throw invalid('remark', message);
      }
      if ('archived' in result) return answerFromTombstone(result.archived, row.body);
      const differ = differences(result.existing.body, row.body);
      if (differ.length > 0) {
        const message = `is taken by a payout that differs in ${differ.join(', ')}: if this is the same payout, nothing is needed; if it is a different payout, give it its own reference`;
        throw invalid('externalReference', message);
      }
      return { reference: row.reference, enqueued: false, record: await record(result.existing) };
    });

  return (
    payout: PayoutCreateParams<string>,
    options: EnqueueOptions<Tx> | undefined,
  ): Promise<EnqueueResult> => {
    let given: EnqueueOptions<Tx> | undefined;
    const refused = (error: unknown) => recordedAlready(payout, given, error);
    const insert = () => {
      try {
        return insertRow(rowOf(payout, given), given);
      } catch (error) {
        return refused(error);
      }
    };
    try {
      const read = enqueueOptions.read(options, 'outbox.enqueue', ['options']);
      given = read && { ...read, tx: ownField(options!, 'tx') as Tx | undefined };
      if (!checksBeneficiary(given?.verifyBeneficiary, client.payouts.verifiesBeneficiaries ?? false))
        return insert();
      // The check asks the service, so the row is written after it: a refusal records nothing.
      if (typeof client.payouts.verify !== 'function') throw invalid('client', NO_VERIFY);
      const verifying = client.payouts.verify(payout, { digits: given?.digits, verifyBeneficiary: true });
      return verifying.then(insert, refused);
    } catch (error) {
      return refused(error);
    }
  };
}
