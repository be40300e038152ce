import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type PayoutCreateParams, RequestValidationError, remarkKey } from 'payments-service-sdk';
import * as z from 'zod';
import { type Accepts, accountId, type CallExtra, registerTool, type ToolContext } from '../context.js';
import { PayoutRefusedError, sameName } from '../format.js';
import { canonicalDecimal } from '../guards/decimal.js';
import { withinPayoutCap } from '../guards/guards.js';
import { accountKey } from '../records.js';
import { EDGE, trimmedStrings } from '../text.js';
import { drive, RETRY_SENTENCE } from './payout-answers.js';
import { payoutRecorder } from './payout-record.js';

/**
 * NGN payouts get a reference the service assigns, so the caller's reference rides in the remark, which the
 * listing shows as the transaction's description. Built from the reference alone: a retry must carry the same one.
 * The outbox keeps remarks unique by `remarkKey` (case and spacing folded) while references are exact, so a
 * reference the key would fold (`INV-1`) also carries a digest of itself: `INV-1` and `inv-1` are two payouts.
 */
export function remarkFor(externalReference: string): string {
  const remark = `payments-service-mcp:${externalReference}`;
  if (remarkKey(remark) === remark) return remark;
  return `${remark}~${createHash('sha256').update(externalReference).digest('hex').slice(0, 8)}`;
}

/** The guards in force, for the model: what a refusal will say, before it happens. */
const guardsText = (phrases: string[]) =>
  phrases.length ? `Guards set by the operator: ${phrases.join('; ')}.` : '';

/** What `amount` is, for the model: the unit, the digits the SDK takes, and the slip it must not make. */
export const AMOUNT_DESCRIPTION =
  'MAJOR units as a decimal string carrying exactly the currency\'s minor-unit digits: "2500.00" is 2,500.00 ' +
  'naira; NGN and USD take exactly 2 decimals ("2500.00"; "2500" is refused), XAF none ("5000"); never kobo or ' +
  'cents: the read tools state amounts in both units, so pass their "major" here, never their "minor". A number ' +
  'is refused.';

/** What the tool does to the values it is given, stated in its description and the README alike. */
export const TRIM_SENTENCE =
  'Every value but externalReference is trimmed of white space (Unicode spaces, the no-break space, a ' +
  'byte-order mark) and invisible formatting characters at either end before anything is checked: the trimmed ' +
  'values are what the guards approve, what is recorded and what is sent. externalReference is sent exactly as ' +
  'given, so a padded one is refused.';

const beneficiary = z
  .object({
    accountName: z.string(),
    accountNumber: z.string(),
    bankName: z.string(),
    bankCode: z.string().describe('From list_banks.'),
    email: z.string(),
  })
  .strict();

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
    // The shape only, the ends trimmed as every value is: the SDK judges the digits for the currency.
    .regex(
      new RegExp(`^${EDGE}*\\d+(\\.\\d+)?${EDGE}*$`),
      'must be a decimal string in MAJOR units, e.g. "5000.00"',
    )
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

type Body = Omit<z.infer<z.ZodObject<typeof payoutInput>>, 'nameEnquiry'>;
type Args = z.infer<z.ZodObject<typeof payoutInput & { accountId: typeof accountId }>>;
export type PayoutInputMatchesSdk = Accepts<PayoutCreateParams, Body>;

export function registerPayoutTool(ctx: ToolContext): void {
  const caps = ctx.config.payoutCaps;
  if (!caps) return;
  const capsText = [...caps].map(([c, a]) => `${c} ${a}`).join(', ');
  const lagText = `${ctx.config.listingLagMs / 1000} s`;
  const { guards } = ctx.records();
  const record = payoutRecorder(ctx);
  /** Drives of a payout in this process, by account and reference: a parallel call joins the one under way. */
  const inFlight = new Map<string, Promise<CallToolResult>>();

  /**
   * One call: checks and guards before any request that moves money, the durable record (which compares the
   * details), then the drive, shared by parallel calls.
   */
  const send = async (args: Args, extra: CallExtra): Promise<CallToolResult> => {
    // Trimmed once, here: from now on every check, the record and the POST see the same values.
    const { accountId: id, nameEnquiry, ...body } = trimmedStrings(args, ['externalReference']);
    const currency = body.currency.toUpperCase();
    const amount = body.amount;
    // The server's own account named explicitly is the same account.
    const account =
      id === undefined || id.toLowerCase() === ctx.config.accountId?.toLowerCase() ? undefined : id;
    const client = ctx.client(account);
    const ref = body.externalReference;
    const facts = {
      account: accountKey(account, ctx.config),
      reference: ref,
      currency,
      amount: canonicalDecimal(amount),
      beneficiary: body.beneficiary,
    };
    const assigned = client.payouts.assignsReference(currency);
    const payout = { ...body, amount, currency, ...(assigned ? { remark: remarkFor(ref) } : {}) };
    const check = async () => {
      // The operator's cap, then the SDK's own checks (the same caps as the client's payoutLimits among them): a
      // refusal asks nothing of the service.
      withinPayoutCap(caps, facts);
      client.payouts.check(payout);
      guards.allowed(body.beneficiary);
      if (currency === 'NGN') {
        checkNameEnquiry(body.beneficiary, nameEnquiry);
        // The agent's enquiry may be made up: the SDK's own check asks the service again (GET /banks lists the
        // bank code, POST /lookup names the holder), so the allowlist's holder must be the bank's too.
        await client.payouts.verify(payout, { verifyBeneficiary: true });
      }
    };
    const outbox = await ctx.records().outboxFor(facts.account, client);
    const repeat = await record({ outbox, payout, facts, extra, check });
    const key = `${facts.account}\u0000${ref}`;
    let running = inFlight.get(key);
    if (!running) {
      // A payout that ended with nothing moved stops counting against the day's cap.
      const settled = (state: string) => {
        if (state === 'not_sent' || state === 'refused' || state === 'cancelled')
          guards.release(ref, ctx.records().tableFor(facts.account));
      };
      running = drive(ctx, outbox, ref, currency, repeat, settled).finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
  };

  registerTool(
    ctx,
    'send_payout',
    {
      title: 'Send a payout (moves money)',
      description:
        `Sends a bank payout. MOVES REAL MONEY. ${RETRY_SENTENCE} The server records every payout it sends, so a ` +
        "reference it has sent is never sent again: a repeat returns that payout's outcome. " +
        `Per-payout caps set by the operator (major units): ${capsText}; other currencies are refused. ` +
        'NGN needs nameEnquiry from lookup_account_name for the same account, and the holder name must match. ' +
        'Calls with the same reference and the same payout share one send (the amount compared as an exact decimal); ' +
        'one with other details is refused, naming the fields that differ. ' +
        'The answer is status "created", "recovered", "in_progress" (call again with the same reference later), ' +
        '"not_sent" (nothing moved), "refused" (the service refused it; nothing moved), "cancelled" (an operator cancelled it; nothing moved, and this reference is never sent) or "unknown" (the operator must check before anything else). ' +
        `A timeout, a lost answer, a 408, 429 or 5xx may come after the service took the payout: it is looked up, and sent again only once a lookup ${lagText} after the send proves it absent ("in_progress" meanwhile). ` +
        'A refusal by a cap or a guard of the operator is a PayoutRefusedError naming it (error.guard); nothing is sent. ' +
        `${TRIM_SENTENCE} Follow a payout sent to its final status with track_payout. ` +
        guardsText(guards.describe()),
      inputSchema: { ...payoutInput, accountId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
      strict: true,
    },
    send,
  );
}

type Enquiry = { accountNumber: string; bankCode: string; accountName: string } | undefined;

/** NGN: the caller's name enquiry must be for this account and name its holder (the bank is asked again after). */
function checkNameEnquiry(to: Body['beneficiary'], given: Enquiry): void {
  if (!given) {
    throw new RequestValidationError([
      {
        path: ['nameEnquiry'],
        message: 'is required for NGN: call lookup_account_name for this account first',
      },
    ]);
  }
  if (given.accountNumber !== to.accountNumber || given.bankCode !== to.bankCode) {
    throw new PayoutRefusedError('nameEnquiry is for a different account than beneficiary; nothing was sent');
  }
  if (!sameName(given.accountName, to.accountName)) {
    throw new PayoutRefusedError(
      `beneficiary.accountName "${to.accountName}" does not match the name enquiry's holder "${given.accountName}"; nothing was sent`,
    );
  }
}
