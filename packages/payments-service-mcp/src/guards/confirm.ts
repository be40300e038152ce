import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallExtra } from '../context.js';
import { PayoutRefusedError } from '../format.js';

/**
 * A person's yes, asked through the host (MCP elicitation, form mode): the host shows the payout as the server
 * words it and the person answers. Only an accepted form whose `confirm` box is ticked is a yes; a decline, a
 * cancel, an unticked box, no answer in time, a host that cannot ask, or a failed request are each a refusal,
 * and nothing is sent. The agent cannot answer for the person: the question goes to the host, not to the model.
 */

/** What the person is shown, built by the server from the checked call (never text the agent wrote as such). */
export interface Confirmation {
  /** One line: the amount, the currency, the holder, the account, the reference. */
  payout: string;
  /** Why it is asked: the threshold it is above. */
  threshold: string;
  timeoutMs: number;
}

/** A value shown to the person on one line, whatever the agent put in it (no line breaks, no control characters). */
export const plain = (value: string, max = 80) => {
  const text = value.replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

const refuse = (message: string) => new PayoutRefusedError(`${message}; nothing was sent`, 'confirmation');

export async function confirmWithPerson(server: Server, extra: CallExtra, ask: Confirmation): Promise<void> {
  const what = `${ask.payout} is above ${ask.threshold}, which needs a person's confirmation`;
  if (!server.getClientCapabilities()?.elicitation?.form) {
    throw refuse(
      `${what}, and this host cannot ask one (it does not offer MCP elicitation): send it from a host that can, ` +
        'or ask the operator',
    );
  }
  let answer: ElicitResult;
  try {
    answer = await server.elicitInput(
      {
        mode: 'form',
        message:
          `payments-service-mcp asks you to confirm a payout. MONEY MOVES if you confirm.\n${ask.payout}\n` +
          `It is above ${ask.threshold}, the amount above which the operator wants a person to confirm.`,
        requestedSchema: {
          type: 'object',
          properties: {
            confirm: {
              type: 'boolean',
              title: 'Send this payout',
              description: 'Tick and accept to send it. Anything else sends nothing.',
            },
          },
          required: ['confirm'],
        },
      },
      { relatedRequestId: extra.requestId, signal: extra.signal, timeout: ask.timeoutMs },
    );
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw refuse(`${what}, and the person could not be asked (${why})`);
  }
  if (answer.action === 'accept' && answer.content?.confirm === true) return;
  const said =
    answer.action === 'accept'
      ? 'answered without ticking "Send this payout"'
      : answer.action === 'decline'
        ? 'declined it'
        : 'dismissed the question';
  throw refuse(`${what}, and the person ${said}`);
}
