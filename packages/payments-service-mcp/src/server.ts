import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type Logger, PaymentsClient } from 'payments-service-sdk';
import type { ServerConfig } from './config.js';
import type { ToolContext } from './context.js';
import { type Redact, redactor } from './format.js';
import { openRecords, type PayoutRecords } from './records.js';
import { registerPayoutTool } from './tools/payout.js';
import { registerReadTools } from './tools/read.js';
import { registerBeneficiaryWrites, registerPayerNameWrites } from './tools/write.js';
import { VERSION } from './version.js';

/** The SDK's warnings and errors, one redacted line each on stderr (stdout carries the protocol). */
export function stderrLogger(redact: Redact): Logger {
  const write = (level: string) => (message: string) =>
    process.stderr.write(`${redact(`payments-service-mcp ${level}: ${message}`.replace(/\n/g, ' '))}\n`);
  return { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug') };
}

/** The server with the tools this configuration allows: reads always; payouts and writes only when enabled. */
export function createServer(config: ServerConfig): McpServer {
  const redact = redactor(config.apiKey);
  const base = new PaymentsClient({
    apiKey: config.apiKey,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    logger: stderrLogger(redact),
    logLevel: 'warn',
    appInfo: { name: 'payments-service-mcp', version: VERSION },
    serviceAssignedCurrencies: config.serviceAssignedCurrencies,
    // The operator's caps are the SDK's own payout ceilings: every payout path of the client honours them.
    ...(config.payoutCaps ? { payoutLimits: Object.fromEntries(config.payoutCaps) } : {}),
  });
  // Checked here, at start-up, the way the SDK checks it: a non-uuid is a RequestValidationError.
  const home = config.accountId ? base.forAccount(config.accountId) : base;
  const server = new McpServer({ name: 'payments-service-mcp', version: VERSION });
  let records: PayoutRecords | undefined;
  const ctx: ToolContext = {
    server,
    config,
    redact,
    client: (accountId) => (accountId === undefined ? home : base.forAccount(accountId)),
    records: () => (records ??= openRecords(config)),
  };
  registerReadTools(ctx);
  registerPayoutTool(ctx);
  registerBeneficiaryWrites(ctx);
  registerPayerNameWrites(ctx);
  return server;
}
