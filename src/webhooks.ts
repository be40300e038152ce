import { nameClass, PaymentsError } from './core/error.js';
import { isRecord } from './core/values.js';

/**
 * Webhook events the spec names. The deposit, payout, fee, account and other payer-name event names are not
 * shown in the spec, so any string is accepted too.
 */
export type WebhookEventName = 'payer_name.active' | 'transaction.uetr.assigned' | (string & {});

/** The event names the spec states. */
export const KNOWN_WEBHOOK_EVENTS = ['payer_name.active', 'transaction.uetr.assigned'] as const;

/** Fields the spec states for `transaction.uetr.assigned`: the same value as the transaction's `uetr`. */
export interface UetrAssignedFields {
  uetr: string;
  [field: string]: unknown;
}

/** Fields the spec states for a deposit event: `payment_rail` as on the transaction (absent = unknown). */
export interface DepositEventFields {
  payment_rail?: 'ach' | 'wire_domestic' | 'wire_international' | 'mobile_money' | (string & {});
  [field: string]: unknown;
}

/** Payer-name event payloads echo the caller's `metadata` where set. */
export interface PayerNameEventFields {
  metadata?: Record<string, string | number | boolean>;
  [field: string]: unknown;
}

/** A parsed webhook body. Its envelope is not shown in the spec, so it is the JSON object as sent. */
export type WebhookPayload = Record<string, unknown>;

/** Headers as Node (`IncomingHttpHeaders`), fetch (`Headers`) or a plain object carries them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a delivery's authenticity. The spec says events are signed but does not show the scheme, so the
 * SDK invents none: supply the check your account documentation describes. Return false (or throw) to reject.
 */
export type WebhookVerifier = (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
) => boolean | Promise<boolean>;

/** Options of `parseWebhook`: a `verify` check, or an explicit `unverified: true` (tests, a trusted relay). */
export type ParseWebhookOptions = { headers?: WebhookHeaders } & (
  | { verify: WebhookVerifier; unverified?: false }
  | { verify?: undefined; unverified: true }
);

/** The webhook body could not be verified or parsed. */
export class WebhookError extends PaymentsError {}
nameClass(WebhookError, 'WebhookError');

/**
 * Verifies and parses a webhook delivery from its raw body. `verify` is required (the spec says events are
 * signed but not how, so you supply the check); `{ unverified: true }` skips it on purpose.
 *
 * ```ts
 * app.post('/webhooks/payments', express.raw({ type: '*\/*' }), async (req, res) => {
 *   const event = await parseWebhook(req.body, { headers: req.headers, verify: myVerifier });
 * });
 * ```
 */
export async function parseWebhook<T extends WebhookPayload = WebhookPayload>(
  rawBody: string | Uint8Array | ArrayBuffer,
  options: ParseWebhookOptions,
): Promise<T> {
  // Unverified events can be forged by anyone who finds the URL: skipping the check has to be said out loud.
  if (!options?.verify && options?.unverified !== true) {
    throw new WebhookError('parseWebhook needs a verify function (or unverified: true, for tests)');
  }
  // The exact bytes as received, verified before decoding: that could drop a BOM or replace invalid UTF-8.
  const exact = rawBody instanceof ArrayBuffer ? new Uint8Array(rawBody) : rawBody;
  if (typeof exact !== 'string' && !(exact instanceof Uint8Array)) {
    // A parsed object has lost the exact bytes a signature covers; re-serialising would not give them back.
    throw new WebhookError(
      'parseWebhook needs the raw request body (string or bytes), read before any JSON body parser runs',
    );
  }
  // Decoded before `verify` runs: a verifier that reuses or wipes the buffer cannot change what is parsed.
  const text = typeof exact === 'string' ? exact : new TextDecoder().decode(exact);
  if (options.verify) {
    let verified = false;
    try {
      verified = await options.verify(exact, options.headers ?? {});
    } catch (error) {
      throw new WebhookError('Webhook verification failed', { cause: error });
    }
    if (verified !== true) throw new WebhookError('Webhook verification failed');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WebhookError('Webhook body is not JSON');
  }
  if (!isRecord(parsed)) throw new WebhookError('Webhook body is not a JSON object');
  return parsed as T;
}
