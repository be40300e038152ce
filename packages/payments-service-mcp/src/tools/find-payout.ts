import { type PaymentsClient, type PayoutMatch, remarkKey, remarkMatch } from 'payments-service-sdk';
import type { PayoutRecord } from 'payments-service-sdk/outbox';
import { findByReference } from 'payments-service-sdk/payouts';
import * as z from 'zod';
import { accountId, READ_ONLY, registerTool, type ToolContext } from '../context.js';
import { result, transactionOut } from '../format.js';
import { accountKey } from '../records.js';
import { remarkFor } from './payout.js';

const code = (currency: string) => currency.trim().toUpperCase();

/**
 * The payout with this reference, for a payout this server has no record of: a withdrawal under its own
 * `external_reference`, or under the remark `send_payout` gives it. Absence is proven only where nothing else can
 * be it: a withdrawal listed without a reference, or in a currency whose listed reference the service assigns
 * (NGN) under another one, might be it (a payout sent outside `send_payout` under this reference, listed under
 * the service's), so it is a doubt, and the search is no proof. `currency`, when the caller knows it, rules out
 * the rows of other currencies.
 */
export function payoutMatch(
  externalReference: string,
  assigns: (currency: string) => boolean,
  currency?: string,
): PayoutMatch {
  // Compared by key, as the outbox keeps remarks unique: a service that trims or re-cases a description still lists it.
  const key = remarkKey(remarkFor(externalReference));
  return (t) => {
    if (t.transaction_type === 'deposit') return false;
    if (
      t.external_reference === externalReference ||
      (t.description !== undefined && remarkKey(t.description) === key)
    ) {
      if (t.transaction_type === 'withdrawal') return true;
      return {
        doubt: `a row of type ${JSON.stringify(t.transaction_type)} carries this reference (${t.id})`,
      };
    }
    if (!Object.hasOwn(t, 'external_reference'))
      return { doubt: `the listing holds a withdrawal without a reference (${t.id})` };
    const listed = t.source_currency ?? t.destination_currency;
    if (currency !== undefined && listed !== undefined && code(listed) !== code(currency)) return false;
    const payout = currency ?? listed;
    if (payout !== undefined && !assigns(payout)) return false;
    return {
      doubt: `the listing holds ${listed === undefined ? 'a withdrawal without a currency' : `a ${code(listed)} withdrawal`} under a reference the service assigns (${t.id}): a payout sent under this reference outside send_payout cannot be told from it`,
    };
  };
}

/** How the listing recognises a recorded payout: by its remark, amount and currency, or by its reference. */
export function identityOf(record: PayoutRecord): { currency: string } | { match: PayoutMatch } {
  const { body } = record;
  return record.matchRemark === undefined
    ? { currency: body.currency }
    : { match: remarkMatch({ remark: record.matchRemark, amount: body.amount!, currency: body.currency }) };
}

/** The record `send_payout` kept of this reference for the account, if it kept one (a read creates nothing). */
export async function recordOf(
  ctx: ToolContext,
  id: string | undefined,
  ref: string,
  client: PaymentsClient,
): Promise<PayoutRecord | undefined> {
  if (!ctx.config.payoutCaps) return undefined;
  const account = accountKey(id, ctx.config);
  if (!ctx.records().hasRecords(account)) return undefined;
  return (await ctx.records().outboxFor(account, client)).get(ref);
}

/**
 * How the search recognises a payout `send_payout` recorded: by the remark, amount and currency it was sent
 * with (unique in the record), or by its reference where the service lists that; from the record's creation.
 */
async function recorded(ctx: ToolContext, id: string | undefined, ref: string, client: PaymentsClient) {
  const record = await recordOf(ctx, id, ref, client);
  return record && { since: record.createdAt, ...identityOf(record) };
}

export function registerFindPayout(ctx: ToolContext): void {
  registerTool(
    ctx,
    'find_payout_by_reference',
    {
      title: 'Find a payout by reference',
      description:
        'Finds a payout by the externalReference it was sent with (including NGN payouts sent by send_payout, ' +
        'whose reference the service replaces), in the default and the failed listings. found: false means both ' +
        'listings were read to their end and nothing in them could be it; an error means absence could not be ' +
        'established (for example an NGN payout this server did not send, which the listing shows under a ' +
        'reference the service assigns).',
      inputSchema: {
        externalReference: z.string().describe('The reference the payout was sent with.'),
        since: z
          .string()
          .optional()
          .describe(
            'Earliest creation time searched, ISO 8601 (default: 7 days back, or when this server recorded it).',
          ),
        currency: z
          .string()
          .optional()
          .describe('The payout currency, if known: rows of other currencies are then ruled out.'),
        accountId,
      },
      annotations: READ_ONLY,
    },
    async ({ externalReference: ref, since, currency, accountId: id }) => {
      const client = ctx.client(id);
      const from = since === undefined ? undefined : new Date(since);
      const identity = (await recorded(ctx, id, ref, client)) ?? {
        match: payoutMatch(ref, (c) => client.payouts.assignsReference(c), currency),
      };
      const found = await findByReference(client, ref, {
        ...identity,
        ...(from ? { since: from } : {}),
      });
      return found
        ? result(ctx.redact, `Found payout ${ref}: ${found.status}.`, {
            found: true,
            transaction: transactionOut(found),
          })
        : result(ctx.redact, `No payout ${ref}: both listings read to their end.`, { found: false });
    },
  );
}
