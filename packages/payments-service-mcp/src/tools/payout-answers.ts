import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PayoutOutbox, PayoutRecord } from 'payments-service-sdk/outbox';
import type { ToolContext } from '../context.js';
import { payoutOut, result, transactionOut } from '../format.js';

/**
 * How `send_payout` answers: it drives the recorded payout for at most `PAYMENTS_MCP_SETTLE_MS`, then says
 * where it stands, in one of the six statuses the tool's description promises.
 */

export const RETRY_SENTENCE =
  'Retrying with the same reference is safe and returns the original payout; never invent a new reference for a retry.';

const FINAL = new Set(['created', 'recovered', 'refused', 'not_sent', 'unknown', 'cancelled']);

/** Settles the recorded payout until it is final or the call's time is up, and answers with where it stands. */
export async function drive(
  ctx: ToolContext,
  outbox: PayoutOutbox,
  ref: string,
  currency: string,
  repeat: boolean,
  settled: (state: PayoutRecord['state']) => void,
): Promise<CallToolResult> {
  const until = Date.now() + ctx.config.settleMs;
  for (;;) {
    const record = await outbox.settle(ref);
    if (FINAL.has(record.state)) {
      settled(record.state);
      return answer(ctx, record, currency, repeat);
    }
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
    case 'cancelled':
      return result(
        ctx.redact,
        `Payout ${ref} was cancelled by an operator: ${record.reason}`,
        {
          status: 'cancelled',
          externalReference: ref,
          attempts,
          reason: record.reason,
          note: 'Nothing moved, and this reference will not be sent: an operator cancelled it in the outbox. Pay again under a new externalReference if it is still wanted.',
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
