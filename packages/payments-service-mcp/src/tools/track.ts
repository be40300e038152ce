import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PayoutNotFinalError, RequestValidationError, type Transaction } from 'payments-service-sdk';
import type { PayoutRecord } from 'payments-service-sdk/outbox';
import { trackPayout } from 'payments-service-sdk/payouts';
import * as z from 'zod';
import { accountId, type CallExtra, READ_ONLY, registerTool, type ToolContext } from '../context.js';
import { result, transactionOut } from '../format.js';
import { identityOf, recordOf } from './find-payout.js';

/**
 * `track_payout`: follows a payout `send_payout` recorded, read-only, with the SDK's tracker (`trackPayout`),
 * until the listing shows a final status, and for at most `PAYMENTS_MCP_TRACK_WAIT_MS`: an agent waits on the
 * call, and a host ends a call of its own accord (many after 60 s).
 */

/** Final statuses after which no UETR comes: the payout never went out. */
const NEVER_SENT = new Set(['failed', 'rejected', 'cancelled']);

/** What the tracking saw: the last status and the row that showed it, the UETR and codes, whether it is final. */
interface Seen {
  status?: string;
  row?: Transaction;
  uetr?: string;
  trackingCodes?: Record<string, string>;
  final: boolean;
  /** Why it is not final, as the tracker says (not seen yet, the last round's failure). */
  reason?: string;
}

/** Follows the recorded payout until it is final (and has its UETR, with `waitForUetr`), or the wait is over. */
async function follow(
  ctx: ToolContext,
  record: PayoutRecord,
  waitForUetr: boolean,
  extra: CallExtra,
  id: string | undefined,
): Promise<Seen> {
  const bound = ctx.config.trackWaitMs;
  // Known by the id the service answered with where it did; else by the record's identity, since it was recorded.
  const answered = record.payout ?? record.transaction;
  const how = answered ? { payout: answered } : { since: record.createdAt, ...identityOf(record) };
  const seen: Seen = { final: false };
  const changes = trackPayout(ctx.client(id), record.reference, {
    ...how,
    totalTimeout: bound,
    // Asked to wait for the UETR, it goes on after the final status until the wait is over.
    afterFinalMs: waitForUetr ? bound : 0,
    signal: extra.signal,
  });
  try {
    for await (const change of changes) {
      seen.status = change.status;
      seen.row = change.transaction;
      seen.final ||= change.final;
      const uetr = change.uetr ?? change.transaction.uetr;
      if (uetr !== undefined) seen.uetr = uetr;
      const codes = change.trackingCodes ?? change.transaction.tracking_codes;
      if (codes !== undefined) seen.trackingCodes = codes;
      if (seen.final && (!waitForUetr || seen.uetr !== undefined || NEVER_SENT.has(change.status))) break;
    }
  } catch (error) {
    if (!(error instanceof PayoutNotFinalError)) throw error;
    seen.reason = error.reason;
  }
  return seen;
}

function answer(record: PayoutRecord, seen: Seen, boundMs: number, redact: ToolContext['redact']) {
  const ref = record.reference;
  const { status, uetr, final } = seen;
  const summary = final
    ? `Payout ${ref} is ${status} (final)${uetr ? `; UETR ${uetr}` : ''}.`
    : `Payout ${ref} is not final after ${boundMs / 1000} s: ${status ? `last seen ${status}` : 'not seen in the listing yet'}.`;
  const note = !final
    ? `Not final after ${boundMs / 1000} s (PAYMENTS_MCP_TRACK_WAIT_MS)${seen.reason ? `: ${seen.reason}` : ''}. Nothing follows from this about the money: call track_payout again later.`
    : uetr === undefined && status === 'completed'
      ? 'No UETR yet: a cross-border payout gets one minutes to hours after sending (call again with waitForUetr); local-rail (NGN) and stablecoin payouts never get one.'
      : undefined;
  return result(redact, summary, {
    externalReference: ref,
    recorded: record.state,
    final,
    status: status ?? null,
    uetr: uetr ?? null,
    ...(seen.trackingCodes ? { trackingCodes: seen.trackingCodes } : {}),
    ...(seen.row ? { transaction: transactionOut(seen.row) } : {}),
    ...(note ? { note } : {}),
  });
}

export function registerTrackTool(ctx: ToolContext): void {
  if (!ctx.config.payoutCaps) return;
  const boundMs = ctx.config.trackWaitMs;
  registerTool(
    ctx,
    'track_payout',
    {
      title: 'Follow a payout to its final status',
      description:
        'Follows a payout send_payout recorded until the listing shows it in a final status (completed, failed, ' +
        `rejected, cancelled, refunded), waiting at most ${boundMs / 1000} s (PAYMENTS_MCP_TRACK_WAIT_MS). Answers ` +
        'the status last seen, final true or false, and the UETR and tracking codes once the service gives them. ' +
        'Not final within the wait: call again later. Read-only: it sends nothing and changes no record. For a ' +
        'quick look, or a payout this server did not send, use find_payout_by_reference.',
      inputSchema: {
        externalReference: z
          .string()
          .min(1)
          .describe('The reference the payout was sent with by send_payout.'),
        waitForUetr: z
          .boolean()
          .optional()
          .describe(
            'After a final "completed", go on waiting (within the same bound) for the UETR: cross-border payouts get one minutes to hours after sending; local-rail (NGN) and stablecoin payouts never do. Default false.',
          ),
        accountId,
      },
      annotations: READ_ONLY,
    },
    async ({ externalReference: ref, waitForUetr, accountId: given }, extra): Promise<CallToolResult> => {
      // The server's own account named explicitly is the same account, as for send_payout.
      const id =
        given === undefined || given.toLowerCase() === ctx.config.accountId?.toLowerCase()
          ? undefined
          : given;
      const record = await recordOf(ctx, id, ref, ctx.client(id));
      if (!record) {
        throw new RequestValidationError([
          {
            path: ['externalReference'],
            message: `is not a payout this server recorded${id ? ` for account ${id}` : ''}: track_payout follows payouts send_payout sent; look for another with find_payout_by_reference`,
          },
        ]);
      }
      if (record.state === 'not_sent' || record.state === 'refused' || record.state === 'cancelled') {
        return result(ctx.redact, `Payout ${ref} was ${record.state.replace('_', ' ')}: nothing moved.`, {
          externalReference: ref,
          recorded: record.state,
          final: true,
          status: null,
          uetr: null,
          note: 'The record shows nothing moved: the service never took this payout, so there is nothing to follow. send_payout with the same reference and details sends it again.',
        });
      }
      const seen = await follow(ctx, record, waitForUetr ?? false, extra, id);
      return answer(record, seen, boundMs, ctx.redact);
    },
  );
}
