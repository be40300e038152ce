import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentsClient } from 'payments-service-sdk';
import * as z from 'zod';
import type { ServerConfig } from './config.js';
import { errorResult, type Redact } from './format.js';
import type { PayoutRecords } from './records.js';

/** What every tool needs: the configuration, a client per account, and the key's redactor. */
export interface ToolContext {
  server: McpServer;
  config: ServerConfig;
  redact: Redact;
  /** The client for this call: `forAccount(accountId)` when given, which refuses a non-uuid as the SDK does. */
  client(accountId: string | undefined): PaymentsClient;
  /** The durable record of sent payouts (payouts enabled only). */
  records(): PayoutRecords;
}

/** The optional per-call account of a tenant key. */
export const accountId = z
  .string()
  .optional()
  .describe(
    "Tenant keys only: the uuid of an account in your tenancy to act as. Omit to act as the server's configured account.",
  );

/** Compile-time proof that a tool's input (less `accountId`) is accepted by the SDK's params type. */
export type Accepts<Params, Input extends Params> = Input;

/** Runs a handler; anything thrown reaches the agent as a tool error with the SDK's class name and message. */
export function guarded<A>(
  ctx: ToolContext,
  handler: (args: A) => Promise<CallToolResult>,
): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      return errorResult(ctx.redact, error);
    }
  };
}

/** Annotations of a tool that only reads. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;
