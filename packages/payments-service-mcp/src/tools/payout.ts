import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type PayoutCreateParams,
  type PayoutMatch,
  PayoutOutcomeUnknownError,
  RequestValidationError,
} from 'payments-service-sdk';
import * as z from 'zod';
import { type Accepts, accountId, guarded, type ToolContext } from '../context.js';
import { errorResult, PayoutRefusedError, payoutOut, result, transactionOut } from '../format.js';

/**
 * NGN payouts get a reference the service assigns, so the caller's reference rides in the remark, which the
 * listing shows as the transaction's description. Built from the reference alone: a retry must carry the same one.
 */
export const remarkFor = (externalReference: string) => `payments-service-mcp:${externalReference}`;

/**
 * The payout with this reference: a withdrawal (a deposit may carry the same text) under its own
 * `external_reference`, or under the remark `send_payout` gave it. Only for service-assigned currencies: for the
 * others the SDK's default match also treats a withdrawal listed without a reference as an incomplete search.
 */
export function payoutMatch(externalReference: string): PayoutMatch {
  const remark = remarkFor(externalReference);
  return (t, ref) =>
    t.transaction_type === 'withdrawal' && (t.external_reference === ref || t.description === remark);
}

/** Currencies whose payouts get a reference the service assigns (the spec's idempotency note). */
const SERVICE_ASSIGNED = new Set(['NGN']);

/** How far back `send_payout` looks for an NGN payout (the SDK's default `since`). */
export const LOOKBACK_DAYS = 7;

/** Sorted-key JSON: two calls with the same details give the same text whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export const RETRY_SENTENCE =
  'Retrying with the same reference is safe and returns the original payout; never invent a new reference for a retry.';

/** Holder names compared as people read them: case and runs of white space do not count. */
export const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toUpperCase() === b.trim().replace(/\s+/g, ' ').toUpperCase();

const beneficiary = z
  .object({
    accountName: z.string(),
    accountNumber: z.string(),
    bankName: z.string(),
    bankCode: z.string().describe('From list_banks.'),
    email: z.string(),
  })
  .strict();

/** What `amount` is, for the model: the unit, and the slip it must not make. */
export const AMOUNT_DESCRIPTION =
  'MAJOR units as a decimal string: "5000.00" is 5,000.00 of the currency (naira, dollars), never kobo or cents. ' +
  'The read tools state amounts in both units: pass their "major" here, never their "minor". A number is refused.';

const payoutInput = {
  externalReference: z
    .string()
    .min(1)
    .describe(`Your unique reference for THIS payout, chosen once and kept. ${RETRY_SENTENCE}`),
  // A string, not a number: a bare number is how minor units (kobo, cents) get sent as major ones.
  amount: z
    .string({
      error: (issue) =>
        typeof issue.input === 'number'
          ? `must be a decimal string in MAJOR units ("5000.00"), not the number ${issue.input}`
          : 'must be a decimal string in MAJOR units, e.g. "5000.00"',
    })
    .regex(/^\s*\d+(\.\d+)?\s*$/, 'must be a decimal string in MAJOR units, e.g. "5000.00"')
    .describe(AMOUNT_DESCRIPTION),
  currency: z
    .string()
    .describe("Currency code, e.g. NGN. Only the currencies of the operator's caps can be sent."),
  beneficiary,
  nameEnquiry: z
    .object({ accountNumber: z.string(), bankCode: z.string(), accountName: z.string() })
    .optional()
    .describe(
      'Required for NGN: the nameEnquiry returned by lookup_account_name for this same account. Its holder name must match beneficiary.accountName.',
    ),
  payerNameId: z
    .string()
    .optional()
    .describe('The payer name the recipient sees (its id); default: the account default.'),
};

/** The tool's input: strict, so a second unit (`amountMinor`) or a misspelt field is refused, never dropped. */
const payoutArgs = z.strictObject({ ...payoutInput, accountId });

type Body = Omit<z.infer<z.ZodObject<typeof payoutInput>>, 'nameEnquiry'>;
type Args = z.infer<typeof payoutArgs>;
export type PayoutInputMatchesSdk = Accepts<PayoutCreateParams, Body>;

export function registerPayoutTool(ctx: ToolContext): void {
  const caps = ctx.config.payoutCaps;
  if (!caps) return;
  const capsText = [...caps].map(([c, a]) => `${c} ${a}`).join(', ');
  /** One send: checks, then the SDK's lookup before any POST. */
  const send = async ({ accountId: id, nameEnquiry, ...given }: Args): Promise<CallToolResult> => {
    const currency = given.currency.trim().toUpperCase();
    const assigned = SERVICE_ASSIGNED.has(currency);
    const ref = given.externalReference;
    const body = { ...given, currency, ...(assigned ? { remark: remarkFor(ref) } : {}) };
    const client = ctx.client(id);
    // The SDK's own checks first, the caps (its payoutLimits) among them: a refusal asks nothing of the service.
    client.payouts.check(body);
    if (assigned) await checkNameEnquiry(client, body.beneficiary, nameEnquiry);
    try {
      const outcome = await client.payouts.lookupBeforeRetry(body, {
        // The SDK's default `since` (LOOKBACK_DAYS back), as the tool description says.
        lookupFirst: true,
        ...(assigned ? { match: payoutMatch(ref) } : {}),
        ...(ctx.config.visibilityWaits ? { visibilityWaits: ctx.config.visibilityWaits } : {}),
      });
      switch (outcome.status) {
        case 'created':
          return result(ctx.redact, `Created payout ${ref} (${outcome.attempts} attempt(s)).`, {
            status: 'created',
            externalReference: ref,
            attempts: outcome.attempts,
            payout: payoutOut(outcome.payout, currency),
          });
        case 'recovered':
          return result(
            ctx.redact,
            `Payout ${ref} already existed (sent earlier); nothing new was sent. Its status: ${outcome.transaction.status}.`,
            {
              status: 'recovered',
              externalReference: ref,
              attempts: outcome.attempts,
              transaction: transactionOut(outcome.transaction),
            },
          );
        case 'not_sent':
          return errorResult(ctx.redact, outcome.error, {
            status: 'not_sent',
            externalReference: ref,
            attempts: outcome.attempts,
            reason: outcome.reason,
            ...(outcome.retryAfterMs !== undefined ? { retryAfterMs: outcome.retryAfterMs } : {}),
            note: 'Nothing moved. The same reference may be sent again later.',
          });
      }
    } catch (error) {
      if (error instanceof PayoutOutcomeUnknownError) {
        return errorResult(ctx.redact, error, {
          status: 'unknown',
          externalReference: ref,
          attempts: error.attempts,
          reason: error.reason,
          operatorMustCheck:
            `Whether payout ${ref} went through is not known. Check find_payout_by_reference (or the dashboard) for ` +
            `${ref} before anything else. ${RETRY_SENTENCE}`,
        });
      }
      throw error;
    }
  };
  /** Sends in progress in this process, by reference. */
  const inFlight = new Map<string, { details: string; answer: Promise<CallToolResult> }>();
  ctx.server.registerTool(
    'send_payout',
    {
      title: 'Send a payout (moves money)',
      description:
        `Sends a bank payout. MOVES REAL MONEY. ${RETRY_SENTENCE} Before sending, the payout is looked up by its ` +
        'reference, so a payout this reference already made is returned (status "recovered") instead of being sent again. ' +
        `Per-payout caps set by the operator (major units): ${capsText}; other currencies are refused. ` +
        'NGN needs nameEnquiry from lookup_account_name for the same account, and the holder name must match. ' +
        `An NGN payout is recognised by its reference for ${LOOKBACK_DAYS} days after it was created; after that the ` +
        'same reference would send a new payout, so check find_payout_by_reference with an earlier since first. ' +
        'Calls with the same reference at the same time share one send; one with other details is refused. ' +
        'The answer is status "created", "recovered", "not_sent" (nothing moved) or "unknown" (the operator must check before anything else).',
      inputSchema: payoutArgs,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    guarded(ctx, async (args) => {
      // Agents issue tool calls in parallel: two sends of one reference would both look, find nothing, and
      // both POST. So a second call waits for the first and gets its answer. (Two processes: see the README.)
      const ref = args.externalReference;
      const details = canonical(args);
      const running = inFlight.get(ref);
      if (running) {
        if (running.details !== details) {
          throw new PayoutRefusedError(
            `payout ${ref} is being sent right now with other details; nothing was sent for this call. ` +
              `${RETRY_SENTENCE}`,
          );
        }
        return running.answer;
      }
      const answer = send(args);
      inFlight.set(ref, { details, answer });
      try {
        return await answer;
      } finally {
        inFlight.delete(ref);
      }
    }),
  );
}

type Client = ReturnType<ToolContext['client']>;
type Enquiry = { accountNumber: string; bankCode: string; accountName: string } | undefined;

/** NGN: the caller's name enquiry must be for this account and name its holder; the server asks the bank again. */
async function checkNameEnquiry(client: Client, to: Body['beneficiary'], given: Enquiry): Promise<void> {
  if (!given) {
    throw new RequestValidationError([
      {
        path: ['nameEnquiry'],
        message: 'is required for NGN: call lookup_account_name for this account first',
      },
    ]);
  }
  if (
    given.accountNumber.trim() !== to.accountNumber.trim() ||
    given.bankCode.trim() !== to.bankCode.trim()
  ) {
    throw new PayoutRefusedError('nameEnquiry is for a different account than beneficiary; nothing was sent');
  }
  if (!sameName(given.accountName, to.accountName)) {
    throw new PayoutRefusedError(
      `beneficiary.accountName "${to.accountName}" does not match the name enquiry's holder "${given.accountName}"; nothing was sent`,
    );
  }
  const fresh = await client.banks.lookup({
    bankCode: to.bankCode.trim(),
    accountNumber: to.accountNumber.trim(),
  });
  if (!sameName(fresh.accountName, to.accountName)) {
    throw new PayoutRefusedError(
      `the bank names the holder of ${fresh.accountNumber} "${fresh.accountName}", not "${to.accountName}"; nothing was sent`,
    );
  }
}
