import {
  AcceptedButUnreadableError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  type PaymentsError,
} from '../core/error.js';
import type { Pipeline } from '../internal/pipeline.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { Payout, PayoutWire } from '../rules/payout.js';
import { answerOfFailure } from './payout-answers.js';
import { PayoutMayHaveMovedError, PayoutReferenceReusedError } from './payout-outcome.js';
import type { PayoutPort } from './port.js';
import { payoutDifferences } from './same-payout.js';

/**
 * What `payouts.create` makes of its one POST, by the rule `lookupBeforeRetry` follows: a 2xx with a readable
 * body is a commitment (and must be the payout sent), a refusal (`answerOfFailure`) moved nothing, and everything else
 * is a doubt, thrown as `PayoutMayHaveMovedError`.
 */

/** What learns from an answer: the client's service-assigned currencies, and its logger. */
type Learner = Pick<Pipeline, 'serviceAssigned' | 'logger'>;

/** The POST as sent, and what the message needs to say how to resume it. */
export interface SentPayout {
  body: PayoutWire;
  /** The service lists this currency's payouts under a reference it assigns: only a `match` finds them. */
  assigned: boolean;
  /** The caller's signal had fired before the call: nothing was sent. */
  abortedBefore: boolean;
  /** `digits` of the call, for comparing the answer's amount. */
  digits?: number | undefined;
}

/** The POST in words, for the message: `answered 503 busy`, `got no answer (...)`. */
function whatHappened(error: unknown): string {
  if (error instanceof AcceptedButUnreadableError) {
    return `was accepted (HTTP ${error.status}) but its answer could not be read (${error.reason})`;
  }
  if (error instanceof APIError) return `answered ${error.message.slice(0, 200)}`;
  if (error instanceof APITimeoutError) return 'timed out before its answer came';
  if (error instanceof APIConnectionError) return `got no answer (${error.message.slice(0, 200)})`;
  if (error instanceof APIUserAbortError) return 'was aborted by the caller after it was sent';
  const name = error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error);
  return `failed (${name})`;
}

/** How to find out whether it moved, and go on. */
function resumeAdvice({ body, assigned }: SentPayout): string {
  if (!body.externalReference) {
    return (
      'It has no reference to look it up by: find it in the transaction listing (remark, amount, beneficiary) ' +
      'before sending it again, and give every payout an externalReference (createExternalReference()) so that ' +
      'lookupBeforeRetry can resume it'
    );
  }
  const resume = assigned
    ? 'lookupBeforeRetry(client, body, { lookupFirst: true, match: remarkMatch({ remark, amount, currency }) }) ' +
      `(the service lists ${body.currency.trim().toUpperCase()} payouts under a reference of its own: only a unique remark recognises one)`
    : 'lookupBeforeRetry(client, body, { lookupFirst: true })';
  return `Do not send it again blindly: resume with ${resume} (payments-service-sdk/payouts), which sends it only once the listing proves it absent`;
}

/** The error `create` throws for a POST that failed: input refused before sending and refusals as they are. */
export function sendFailure(error: unknown, sent: SentPayout): unknown {
  // The one rule (`answerOfFailure`): refused by the service, or never sent, moved nothing.
  const { kind } = answerOfFailure(error);
  if (kind === 'refused' || kind === 'unsent') return error;
  if (error instanceof APIUserAbortError && sent.abortedBefore) return error;
  const received =
    error instanceof APIError || error instanceof AcceptedButUnreadableError
      ? { status: error.status, requestId: error.requestId }
      : {};
  const reference = sent.body.externalReference ?? '';
  return new PayoutMayHaveMovedError(reference, whatHappened(error), resumeAdvice(sent), {
    cause: error,
    ...received,
  });
}

/**
 * What is wrong with a readable answer, if anything, once what it teaches is learned (`learnReference`): another
 * payout's details under the reference sent is that payout (the spec: a repeated reference returns the
 * original), `PayoutReferenceReusedError`; without a reference nothing says which payout the service made, a doubt.
 */
export function judgeAnswer(answered: Payout, sent: SentPayout, client: Learner): PaymentsError | undefined {
  learnReference(sent.body, answered, client);
  const differences = payoutDifferences(sent.body, answered, { digits: sent.digits });
  if (differences.length === 0) return undefined;
  const reference = sent.body.externalReference;
  if (reference) return new PayoutReferenceReusedError(reference, answered, differences);
  const fields = differences.map((d) => `${d.field} (sent ${d.sent}; shown ${d.shown})`).join(', ');
  const reason = `answered with payout ${answered.id}, which differs in ${fields}`;
  return new PayoutMayHaveMovedError('', reason, resumeAdvice(sent));
}

/**
 * A POST answered under another reference than the one sent: the service assigns this currency's references
 * (mobile money, say), and a lookup by the caller's reference proves nothing for it from now on. Counted so
 * (`learn`), with a warning the first time, naming the client option that says so from the start.
 */
export function learnReference(sent: PayoutWire, payout: Payout, client: Learner): void {
  const answered = payout.external_reference;
  if (!sent.externalReference || !answered || answered === sent.externalReference) return;
  const currency = sent.currency.trim().toUpperCase();
  if (!client.serviceAssigned.learn(currency)) return;
  client.logger.log(
    'warn',
    `payout ${sent.externalReference} was answered under the reference ${JSON.stringify(answered.slice(0, 80))}: ` +
      `the service assigns ${currency} payout references, so this client now counts ${currency} among ` +
      `serviceAssignedCurrencies (a lookup by your reference proves nothing; pass match). Name ${currency} in the ` +
      'client option serviceAssignedCurrencies so that this holds from the start, after a restart too',
  );
}

/**
 * One POST /payouts of a body `check` made, as `create` sends it, its answer judged. For the state machine's
 * drivers (`lookupBeforeRetry`, the outbox): they check a payout once, then send the body as checked, so its
 * rules run once per payout and what is sent is what was checked. A failure is thrown as it came (no
 * `PayoutMayHaveMovedError` around it): the machine reads it by `answerOfFailure`.
 */
export async function postChecked(
  port: Pick<PayoutPort, 'api' | 'post' | 'assignsReference'>,
  body: PayoutWire,
  options: RequestOptions,
  digits: number | undefined,
): Promise<{ payout: Payout; requestId: string | undefined }> {
  const { data, response } = await port.api.call(port.post(body, options), 'payouts.create').withResponse();
  const assigned = port.assignsReference(body.currency);
  const wrong = judgeAnswer(data, { body, assigned, abortedBefore: false, digits }, port.api);
  if (wrong) throw wrong;
  return { payout: data, requestId: response.requestId };
}
