import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type PayoutCreateParams, type PayoutMatch, RequestValidationError } from 'payments-service-sdk';
import type { PayoutOutbox, PayoutRecord } from 'payments-service-sdk/outbox';
import * as z from 'zod';
import { type Accepts, accountId, guarded, type ToolContext } from '../context.js';
import { PayoutRefusedError, payoutOut, result, transactionOut } from '../format.js';

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
  /** Drives of a payout in this process, by account and reference: a parallel call joins the one under way. */
  const inFlight = new Map<string, Promise<CallToolResult>>();

  /** One call: checks, the durable record (which compares the details), then the drive, shared by parallel calls. */
  const send = async ({ accountId: id, nameEnquiry, ...body }: Args): Promise<CallToolResult> => {
    const currency = body.currency.trim().toUpperCase();
    // The server's own account named explicitly is the same account.
    const account =
      id === undefined || id.toLowerCase() === ctx.config.accountId?.toLowerCase() ? undefined : id;
    const client = ctx.client(account);
    const ref = body.externalReference;
    const assigned = client.payouts.assignsReference(currency);
    const payout = {
      ...body,
      amount: body.amount.trim(),
      currency,
      ...(assigned ? { remark: remarkFor(ref) } : {}),
    };
    // The SDK's own checks first, the operator's caps (the client's payoutLimits) among them: a refusal asks
    // nothing of the service.
    client.payouts.check(payout);
    if (currency === 'NGN') await checkNameEnquiry(client, body.beneficiary, nameEnquiry);
    const outbox = await ctx.records().outboxFor(account, client);
    // Recorded before anything is sent; the same payout again (amount and names compared as parsed) finds its
    // record, another one under this reference is refused with the fields that differ.
    const queued = await outbox.enqueue(payout).catch((error: unknown) => {
      if (error instanceof RequestValidationError && error.field === 'externalReference') {
        throw new PayoutRefusedError(
          `payout ${ref} was recorded with other details (${error.message.replace(/^.*?differs in /, 'it differs in ')}); nothing was sent for this call`,
        );
      }
      throw error;
    });
    const before = queued.enqueued ? undefined : queued.record.state;
    if (before === 'not_sent' || before === 'refused') {
      // Nothing moved before: called again, it is sent again (after a lookup).
      await outbox.retry(ref, { by: 'payments-service-mcp', note: 'send_payout was called again' });
    }
    // Final before this call (and not re-opened by it): the answer is the record's, and nothing is sent.
    const repeat = before === 'created' || before === 'recovered' || before === 'unknown';
    const key = `${account ?? ''}\u0000${ref}`;
    let running = inFlight.get(key);
    if (!running) {
      running = drive(ctx, outbox, ref, currency, repeat).finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
  };

  ctx.server.registerTool(
    'send_payout',
    {
      title: 'Send a payout (moves money)',
      description:
        `Sends a bank payout. MOVES REAL MONEY. ${RETRY_SENTENCE} The server records every payout it sends, so a ` +
        "reference it has sent is never sent again: a repeat returns that payout's outcome. " +
        `Per-payout caps set by the operator (major units): ${capsText}; other currencies are refused. ` +
        'NGN needs nameEnquiry from lookup_account_name for the same account, and the holder name must match. ' +
        'Calls with the same reference and the same payout share one send (amounts compared as numbers: 50, "50" and "50.00" are one); ' +
        'one with other details is refused, naming the fields that differ. ' +
        'The answer is status "created", "recovered", "in_progress" (call again with the same reference later), ' +
        '"not_sent" (nothing moved), "refused" (the service refused it; nothing moved) or "unknown" (the operator must check before anything else).',
      inputSchema: payoutArgs,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    guarded(ctx, send),
  );
}

const FINAL = new Set(['created', 'recovered', 'refused', 'not_sent', 'unknown']);

/** Settles the recorded payout until it is final or the call's time is up, and answers with where it stands. */
async function drive(
  ctx: ToolContext,
  outbox: PayoutOutbox,
  ref: string,
  currency: string,
  repeat: boolean,
): Promise<CallToolResult> {
  const until = Date.now() + ctx.config.settleMs;
  for (;;) {
    const record = await outbox.settle(ref);
    if (FINAL.has(record.state)) return answer(ctx, record, currency, repeat);
    const wait = Math.max(0, record.nextAttemptAt.getTime() - Date.now());
    if (Date.now() + wait > until) return inProgress(ctx, record);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The error a record's last POST or lookup met, as tool errors report one. */
function lastError(record: PayoutRecord): Record<string, unknown> {
  const attempt = [...record.attempts].reverse().find((a) => a.error !== undefined);
  return {
    class: attempt?.error ?? 'Error',
    message: attempt?.detail ?? record.reason ?? record.state,
    ...(attempt?.status === undefined ? {} : { status: attempt.status }),
    ...(attempt?.requestId === undefined ? {} : { requestId: attempt.requestId }),
  };
}

function answer(ctx: ToolContext, record: PayoutRecord, currency: string, repeat: boolean): CallToolResult {
  const ref = record.reference;
  const attempts = record.sends;
  switch (record.state) {
    case 'created':
      return result(
        ctx.redact,
        repeat
          ? `Payout ${ref} was sent earlier (this server's record); nothing new was sent.`
          : `Created payout ${ref} (${attempts} attempt(s)).`,
        {
          status: 'created',
          externalReference: ref,
          attempts,
          ...(repeat ? { repeat: true } : {}),
          payout: payoutOut(record.payout!, currency),
        },
      );
    case 'recovered': {
      const found = record.transaction;
      return result(
        ctx.redact,
        `Payout ${ref} already existed (sent earlier); nothing new was sent.${found ? ` Its status: ${found.status}.` : ''}`,
        {
          status: 'recovered',
          externalReference: ref,
          attempts,
          ...(found ? { transaction: transactionOut(found) } : { note: record.reason }),
        },
      );
    }
    case 'not_sent':
      return result(
        ctx.redact,
        `Payout ${ref} was not sent: ${record.reason}`,
        {
          error: lastError(record),
          status: 'not_sent',
          externalReference: ref,
          attempts,
          reason: record.reason,
          note: 'Nothing moved. The same reference may be sent again later.',
        },
        true,
      );
    case 'refused':
      return result(
        ctx.redact,
        `Payout ${ref} was refused: ${record.reason}`,
        {
          error: lastError(record),
          status: 'refused',
          externalReference: ref,
          attempts,
          reason: record.reason,
          note: 'The service refused it; nothing moved. Fix the cause, then send the same reference again.',
        },
        true,
      );
    default:
      return result(
        ctx.redact,
        `PayoutOutcomeUnknownError: ${record.reason}`,
        {
          error: { class: 'PayoutOutcomeUnknownError', message: record.reason },
          status: 'unknown',
          externalReference: ref,
          attempts,
          reason: record.reason,
          operatorMustCheck:
            `Whether payout ${ref} went through is not known. Check find_payout_by_reference (or the dashboard) for ` +
            `${ref} before anything else; it will not be sent again until an operator resolves it ` +
            `(payments-outbox resolve). ${RETRY_SENTENCE}`,
        },
        true,
      );
  }
}

function inProgress(ctx: ToolContext, record: PayoutRecord): CallToolResult {
  return result(ctx.redact, `Payout ${record.reference} is still being settled (${record.state}).`, {
    status: 'in_progress',
    externalReference: record.reference,
    state: record.state,
    nextAttemptAt: record.nextAttemptAt.toISOString(),
    ...(record.reason ? { reason: record.reason } : {}),
    note: 'Not final yet, and never sent twice: call send_payout again with the same reference and details to learn the outcome.',
  });
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
