#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readConfig, usage, wantsHelp } from './config.js';
import { redactor } from './format.js';
import { createServer } from './server.js';
import { trimmed } from './text.js';

/** `npx payments-service-mcp [--allow-payouts] [--allow-beneficiary-writes] [--allow-payer-name-writes]` */
async function main(): Promise<void> {
  // Asked for help, the server does not start: stdout carries the usage, not the protocol.
  if (wantsHelp(process.argv.slice(2))) {
    process.stdout.write(usage());
    return;
  }
  // The key as the settings read it (trimmed as every value is), so that the very key sent is the one removed.
  const redact = redactor(trimmed(process.env.PAYMENTS_API_KEY ?? ''));
  try {
    const config = readConfig(process.env, process.argv.slice(2));
    const { server, guards } = await createServer(config);
    await server.connect(new StdioServerTransport());
    const enabled = [
      config.payoutCaps &&
        `payouts (caps: ${[...config.payoutCaps].map(([c, a]) => `${c} ${a}`).join(', ')})`,
      guards.length > 0 && `guards: ${guards.join('; ')}`,
      config.beneficiaryWrites && 'beneficiary writes',
      config.payerNameWrites && 'payer-name writes',
    ].filter(Boolean);
    process.stderr.write(
      `payments-service-mcp: ready on stdio; ${enabled.length ? `enabled: ${enabled.join('; ')}` : 'read-only'}\n`,
    );
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`${redact(`payments-service-mcp: cannot start: ${text}`)}\n`);
    process.exit(1);
  }
}

void main();
