import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type Logger, PaymentsClient } from 'payments-service-sdk';
import type { ServerConfig } from './config.js';
import type { ToolContext } from './context.js';
import { type Redact, redactor } from './format.js';
import { openRecords } from './records.js';
import { registerFindPayout } from './tools/find-payout.js';
import { registerPayoutTool } from './tools/payout.js';
import { registerReadTools } from './tools/read.js';
import { registerTrackTool } from './tools/track.js';
import { registerBeneficiaryWrites, registerPayerNameWrites } from './tools/write.js';
import { VERSION } from './version.js';

/** The SDK's warnings and errors, one redacted line each on stderr (stdout carries the protocol). */
export function stderrLogger(redact: Redact): Logger {
  const write = (level: string) => (message: string) =>
    process.stderr.write(`${redact(`payments-service-mcp ${level}: ${message}`.replace(/\n/g, ' '))}\n`);
  return { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug') };
}

/**
 * The server with the tools this configuration allows: reads always; payouts and writes only when enabled. With
 * payouts on, the state file is opened and the guards applied now, so a file that cannot be opened stops the
 * start-up instead of the first payout.
 */
export async function createServer(config: ServerConfig): Promise<{ server: McpServer; guards: string[] }> {
  const redact = redactor(config.apiKey);
  const base = new PaymentsClient({
    apiKey: config.apiKey,
    baseUrl: config.baseUrl,
    logger: stderrLogger(redact),
    logLevel: config.logLevel,
    appInfo: { name: 'payments-service-mcp', version: VERSION },
    serviceAssignedCurrencies: config.serviceAssignedCurrencies,
    // The operator's caps are the SDK's own payout ceilings: every payout path of the client honours them.
    ...(config.payoutCaps ? { payoutLimits: Object.fromEntries(config.payoutCaps) } : {}),
  });
  // Checked here, at start-up, the way the SDK checks it: a non-uuid is a RequestValidationError.
  const home = config.accountId ? base.forAccount(config.accountId) : base;
  const server = new McpServer({ name: 'payments-service-mcp', version: VERSION });
  const records = config.payoutCaps ? await openRecords(config) : undefined;
  const ctx: ToolContext = {
    server,
    config,
    redact,
    client: (accountId) => (accountId === undefined ? home : base.forAccount(accountId)),
    records: () => {
      if (!records) throw new Error('payouts are not enabled on this server');
      return records;
    },
  };
  registerReadTools(ctx);
  registerFindPayout(ctx);
  registerPayoutTool(ctx);
  registerTrackTool(ctx);
  registerBeneficiaryWrites(ctx);
  registerPayerNameWrites(ctx);
  return { server, guards: records?.guards.describe() ?? [] };
}
