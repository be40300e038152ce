/**
 * A payout's life after it is sent: one tracker follows an NGN payout to its final status and a cross-border
 * (USD) wire until its UETR arrives, reading the transaction listing (there is no GET for one transaction). Step
 * 3b of `examples/quickstart.ts` (`npm run demo`), where the mock completes each payout and assigns the wire its
 * UETR a moment later.
 */
import {
  type PaymentsClient,
  type PayoutMatch,
  PayoutNotFinalError,
  type Transaction,
} from 'payments-service-sdk';
import { lookupBeforeRetry, type PayoutChange, payoutTracker } from 'payments-service-sdk/payouts';
import type { PaymentsMock } from 'payments-service-sdk/testing';

export interface PayoutLifeContext {
  client: PaymentsClient;
  mock?: PaymentsMock;
  log: (line: string) => void;
  /** The NGN payout of step 3: its reference, how it is recognised, and the row it was found as. */
  ngn: { externalReference: string; match: PayoutMatch; found: Pick<Transaction, 'id' | 'created_at'> };
  /** The beneficiary to send the wire to (against the mock only). */
  beneficiary: {
    accountName: string;
    accountNumber: string;
    bankName: string;
    bankCode: string;
    email: string;
  };
  visibilityWaits?: number[];
}

const describe = (change: PayoutChange) =>
  change.kind === 'status'
    ? `${change.previous ?? '(sent)'} -> ${change.status}${change.final ? ' (final)' : ''}${change.anomaly ? ` [${change.anomaly}]` : ''}`
    : `UETR ${change.uetr} assigned (${change.status})`;

/** Before the payouts are sent: against the mock, give each one a life (completed, and a UETR for the wire). */
export function scheduleLives(mock: PaymentsMock | undefined): void {
  if (mock) mock.settings.lifecycle = { completeAfterMs: 400, uetrAfterMs: 900 };
}

export async function payoutLife({
  client,
  mock,
  log,
  ngn,
  beneficiary,
  visibilityWaits,
}: PayoutLifeContext) {
  // One tracker for both: each round reads the listing window that covers them once.
  const tracker = payoutTracker(client, { poll: { minMs: 200, maxMs: 2000 } });
  const following: Array<Promise<void>> = [];
  const follow = (
    label: string,
    changes: AsyncIterable<PayoutChange>,
    until?: (c: PayoutChange) => boolean,
  ) =>
    following.push(
      (async () => {
        try {
          for await (const change of changes) {
            log(`   ${label}: ${describe(change)}`);
            if (until?.(change)) break;
          }
        } catch (error) {
          // Not final within the time given: nothing is wrong with the payout, it is just not done yet.
          if (!(error instanceof PayoutNotFinalError)) throw error;
          log(`   ${label}: not final yet (${error.status ?? 'not listed yet'}): look again later`);
        }
      })(),
    );
  // The mock's schedule ends every payout; a real one may take longer than a demo should wait.
  const limit = mock ? {} : { totalTimeout: 20_000 };
  follow('NGN', tracker.track(ngn.externalReference, { payout: ngn.found, match: ngn.match, ...limit }));
  if (mock) {
    // A wire: completed first, its UETR from the correspondent network after (the spec: minutes, sometimes hours).
    const externalReference = `wire_${Date.now().toString(36)}`;
    const outcome = await lookupBeforeRetry(
      client,
      { amount: '250.00', currency: 'USD', beneficiary, externalReference },
      { visibilityWaits },
    );
    const payout =
      outcome.status === 'created'
        ? outcome.payout
        : outcome.status === 'recovered'
          ? outcome.transaction
          : undefined;
    if (payout) {
      const wire = tracker.track(externalReference, { payout, afterFinalMs: 60_000 });
      follow('USD wire', wire, (change) => change.kind === 'uetr');
    }
  }
  await Promise.all(following);
  tracker.close();
}
