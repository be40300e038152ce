import { invalid } from '../core/error.js';
import { type CallContext, count, traceCall } from '../internal/channels.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { CurrencyCode } from '../rules/currency-codes.js';
import type { PayoutCreateParams, PayoutWire } from '../rules/payout.js';
import { portSearchDeps } from './find.js';
import { isRefusal } from './payout-answers.js';
import { type LookupBeforeRetryOptions, recoveryOptions, refuseUntil } from './payout-options.js';
import { type PayoutOutcome, PayoutOutcomeUnknownError } from './payout-outcome.js';
import { recoverPayout } from './payout-recovery.js';
import { postChecked } from './payout-send.js';
import { type PaymentsClientLike, type PayoutPort, payoutPort } from './port.js';
import type { ProofWindow } from './proof/listing-proof.js';
import { searchFor } from './proof/payout-lookup.js';

/**
 * Sends a payout so that money moves at most once. On an ambiguous failure (no response, timeout, 408,
 * 429, 5xx, an unreadable 2xx) it looks for the payout by `externalReference` in the transaction listing
 * before trying again. Throws `PayoutOutcomeUnknownError` if it still cannot tell.
 *
 * ```ts
 * import { lookupBeforeRetry } from 'payments-service-sdk/payouts';
 * const outcome = await lookupBeforeRetry(client, { ...body, externalReference: saved.reference });
 * ```
 */
export async function lookupBeforeRetry<C extends string = CurrencyCode, A extends string = string>(
  client: PaymentsClientLike,
  body: PayoutCreateParams<C, A> & { externalReference: string },
  given: LookupBeforeRetryOptions = {},
): Promise<PayoutOutcome> {
  return traceCall('payouts.lookupBeforeRetry', async (context) => {
    const port = payoutPort(client, 'lookupBeforeRetry');
    refuseUntil(given ?? {});
    // First of all: a typo such as `lookupfirst` would send the payout without looking (a second payout).
    const options = recoveryOptions.read(given, 'lookupBeforeRetry') ?? {};
    const checked = port.check(body, { digits: options.digits });
    if (!checked.externalReference) {
      const message = 'is required: create one with createExternalReference() and persist it before sending';
      throw invalid(['externalReference'], message);
    }
    if (context) context.externalReference = checked.externalReference;
    const payout = { ...checked, externalReference: checked.externalReference };
    try {
      const warn = (message: string) => port.api.logger.log('warn', message);
      const { signal, timeout, headers, verifyBeneficiary: on } = options;
      const verify = () => port.checkBeneficiary(checked, on, { signal, timeout, headers });
      const post = (wire: PayoutWire, request: RequestOptions) =>
        postChecked(port, wire, request, options.digits);
      const steps = { post, search: searcher(port, context, options, checked) };
      const outcome = await recoverPayout({ ...steps, warn, verify }, payout, options);
      if (context) Object.assign(context, { outcome: outcome.status, attempts: outcome.attempts });
      return outcome;
    } catch (error) {
      if (context && error instanceof PayoutOutcomeUnknownError) {
        Object.assign(context, { outcome: 'unknown', attempts: error.attempts });
      }
      // The one refusal recoverPayout rethrows is the first POST's: the service said no, nothing moved.
      if (context && isRefusal(error)) Object.assign(context, { outcome: 'refused', attempts: 1 });
      throw error;
    }
  });
}

/** Each listing search, a `payouts.lookup` call of its own; its pages count on the payout's context. */
function searcher(
  port: PayoutPort,
  context: CallContext | undefined,
  options: LookupBeforeRetryOptions,
  checked: PayoutWire,
) {
  const searchOptions = { ...options, currency: checked.currency, payout: checked };
  return (ref: string, window: ProofWindow) =>
    traceCall(
      'payouts.lookup',
      async (lookup) => {
        count(context, 'lookups');
        const pages = () => count(context, 'pages');
        const result = await searchFor(portSearchDeps(port), ref, window, searchOptions, pages);
        if (lookup) lookup.found = Boolean(result.found);
        return result;
      },
      { externalReference: ref },
    );
}
