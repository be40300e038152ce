import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { type PaymentsClient, RequestValidationError } from 'payments-service-sdk';
import * as z from 'zod';
import * as zm from 'zod/mini';
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

/** The MCP SDK's per-call context: the request's id and abort signal, and requests back to the host. */
export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The optional per-call account of a tenant key. */
export const accountId = z
  .string()
  .optional()
  .describe(
    "Tenant keys only: the uuid of an account in your tenancy to act as. Omit to act as the server's configured account.",
  );

/** Compile-time proof that a tool's input (less `accountId`) is accepted by the SDK's params type. */
export type Accepts<Params, Input extends Params> = Input;

/** An argument the tool's own schema refused, kept in its place so that the handler can report it. */
class Refused {
  constructor(
    readonly field: string,
    readonly given: unknown,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {}
}

/**
 * The input shape a host lists, unchanged, and checked as before, but a refused argument no longer fails the
 * call inside the MCP SDK (which answers `MCP error -32602: Input validation error` as bare text, with no
 * `structuredContent`, and offers no hook to shape it): each top-level field that fails becomes a `Refused` in
 * its place, and `guarded` reports them all as one `RequestValidationError` naming each field, in the
 * documented `{ error: { class, message, issues } }`. The schema stays the one source of truth: nothing is
 * checked twice or by other rules. (The catch value is `undefined` when zod renders JSON Schema, so the listed
 * schema gains no `default`.)
 */
export function checked<S extends ZodRawShapeCompat>(shape: S): S {
  return Object.fromEntries(
    Object.entries(shape).map(([field, schema]) => [
      field,
      zm.catch(schema as z.core.$ZodType, (ctx) =>
        ctx === undefined ? undefined : new Refused(field, ctx.input, ctx.error.issues),
      ),
    ]),
  ) as unknown as S;
}

/** The fields `checked` set aside, as the SDK's own validation error: the field named, then what is wrong. */
function refusedArguments(args: unknown): RequestValidationError | undefined {
  if (args === null || typeof args !== 'object') return undefined;
  const refused = Object.entries(args).filter(
    (entry): entry is [string, Refused] => entry[1] instanceof Refused,
  );
  if (refused.length === 0) return undefined;
  return new RequestValidationError(
    refused.flatMap(([key, { field, given, issues }]) =>
      // An argument the tool does not list (`strict` tools) has no field of its own: its key names it.
      field === ''
        ? [{ path: [key], message: 'is not an argument of this tool' }]
        : issues.map((issue) => ({
            path: [field, ...issue.path.map(String)],
            message: given === undefined && issue.path.length === 0 ? 'is required' : issue.message,
          })),
    ),
  );
}

/**
 * Runs a handler; a refused argument, and anything thrown, reaches the agent as a tool error with the SDK's
 * class name and message.
 */
export function guarded<A>(
  ctx: ToolContext,
  handler: (args: A, extra: CallExtra) => Promise<CallToolResult>,
): (args: A, extra: CallExtra) => Promise<CallToolResult> {
  return async (args, extra) => {
    try {
      const refused = refusedArguments(args);
      if (refused) throw refused;
      return await handler(args, extra);
    } catch (error) {
      return errorResult(ctx.redact, error);
    }
  };
}

/** How a tool shows itself to the host. */
export interface ToolDefinition<S extends ZodRawShapeCompat> {
  title: string;
  description: string;
  inputSchema: S;
  annotations: ToolAnnotations;
  /**
   * Refuse any argument the schema does not list (reported like every other refusal), where a dropped one could
   * change what happens (`send_payout`: a second unit of the amount). Its JSON Schema says so.
   */
  strict?: boolean;
}

/** Registers a tool whose every failure, its own schema's refusals included, is a documented tool error. */
export function registerTool<S extends ZodRawShapeCompat>(
  ctx: ToolContext,
  name: string,
  definition: ToolDefinition<S>,
  handler: (args: ShapeOutput<S>, extra: CallExtra) => Promise<CallToolResult>,
): void {
  const { strict, ...shown } = definition;
  const fields = checked(definition.inputSchema);
  // Kept, not stripped, so the handler can name it: the JSON Schema lists no other property.
  const unlisted = z
    .never()
    .catch((ctx) => (ctx === undefined ? undefined : new Refused('', ctx.input, ctx.error.issues)) as never);
  const inputSchema = strict ? z.object(fields).catchall(unlisted) : fields;
  ctx.server.registerTool(name, { ...shown, inputSchema }, guarded(ctx, handler) as never);
}

/** Annotations of a tool that only reads. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;
