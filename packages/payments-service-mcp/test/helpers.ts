import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { PaymentsClient } from 'payments-service-sdk';
import { createPayoutOutbox, sqliteOutboxStore } from 'payments-service-sdk/outbox';
import { type MockServer, startMockServer } from 'payments-service-sdk/testing';
import { afterAll, beforeAll } from 'vitest';
import { CANARY_KEY } from '../../../test/helpers/server.js';
import { remarkFor } from '../src/tools/payout.js';

export { CANARY_KEY };

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));

/** A second account in the canary key's tenancy is the mock's seeded business sub-account. */
export function useMockServer(): { server: () => MockServer } {
  let server: MockServer | undefined;
  beforeAll(async () => {
    // The canary key: a tenant key allowlisted for loopback, so it may send payouts and X-Account-Id.
    server = await startMockServer({
      apiKeys: [{ key: CANARY_KEY, tenant: true, allowlist: ['127.0.0.1'] }],
    });
  });
  afterAll(() => server?.close());
  return {
    server: () => {
      if (!server) throw new Error('the mock server is not started');
      return server;
    },
  };
}

/** A running MCP server process, driven through the official client as an agent host would. */
export interface Session {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

/** How the test host answers the server's questions to its person (MCP elicitation). */
export type Person = (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;

/**
 * Spawns the server (its TypeScript source through tsx, which maps `payments-service-sdk` to the SDK's source
 * by the repository's tsconfig paths) and connects. With `person`, the host declares elicitation and answers
 * each question through it; without, the host cannot ask (as many hosts cannot).
 */
export async function connect(
  env: Record<string, string>,
  args: string[] = [],
  person?: Person,
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', bin, ...args],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', TSX_TSCONFIG_PATH: `${root}tsconfig.json`, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: 'payments-service-mcp-test', version: '0.0.0' },
    person ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (person) client.setRequestHandler(ElicitRequestSchema, (request) => person(request.params));
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name, callArgs = {}) =>
      (await client.callTool({ name, arguments: callArgs }, undefined, {
        timeout: 120_000,
      })) as CallToolResult,
    close: () => client.close(),
  };
}

const stateDir = mkdtempSync(join(tmpdir(), 'mcp-state-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));
let states = 0;

/** A fresh file for a server's record of sent payouts (pass it to two servers to share one record). */
export const stateFile = () => join(stateDir, `payouts-${++states}.db`);

/**
 * The environment of a server pointed at the mock with the canary key, with a record file of its own (never the
 * user's state directory).
 */
export function envFor(server: MockServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PAYMENTS_API_KEY: CANARY_KEY,
    PAYMENTS_BASE_URL: server.baseUrl,
    PAYMENTS_MCP_STATE: stateFile(),
    ...extra,
  };
}

/** A tool result's structured content. */
export function data(result: CallToolResult): Record<string, any> {
  return result.structuredContent as Record<string, any>;
}

/** Every text a result carries, for checks that nothing secret leaked. */
export function everything(result: unknown): string {
  return JSON.stringify(result);
}

/** The account the mock's name enquiry resolves to ADAEZE KEMI OKAFOR (bank 000013). */
export const BENEFICIARY = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: '0123456788',
  bankName: 'Guaranty Trust Bank',
  bankCode: '000013',
  email: 'ada@example.com',
};

/** A USD payout to BENEFICIARY (no name enquiry in USD). */
export const usd = (externalReference: string, amount: string, extra: Record<string, unknown> = {}) => ({
  externalReference,
  amount,
  currency: 'USD',
  beneficiary: BENEFICIARY,
  ...extra,
});

/** Withdrawals in the mock's ledger that send_payout made for this reference (NGN ones carry it in the remark). */
export function paid(server: MockServer, reference: string): number {
  return server.mock
    .account()
    .transactions.filter(
      ({ row }) =>
        row.transaction_type === 'withdrawal' &&
        (row.external_reference === reference || row.description === remarkFor(reference)),
    ).length;
}

/** The outbox table of the key's own account in a state file (named by a digest of the key). */
function outboxTable(db: DatabaseSync): string {
  const { name } = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'payout_outbox_key_*'
         AND name NOT GLOB '*_remarks' AND name NOT GLOB '*_tombstones'`,
    )
    .get() as { name: string };
  return name;
}

/**
 * Time passing for the record of the key's own account, which a test cannot do to a real process's clock: its
 * payouts' sends moved `ms` into the past, and any lease and wait on them over. (A crashed server's lease, the
 * longest a POST can take, the listing lag after a send: each is counted from the record's times.)
 */
export function timePasses(state: string, ms: number): void {
  const db = new DatabaseSync(state);
  try {
    db.prepare(
      `UPDATE ${outboxTable(db)} SET lease_until = 0, next_attempt_at = 0,
         first_sent_at = first_sent_at - ?, last_sent_at = last_sent_at - ?`,
    ).run(ms, ms);
  } finally {
    db.close();
  }
}

/** What an operator does from the outbox's console: cancels a recorded payout that never moved. */
export async function cancelRecorded(state: string, reference: string): Promise<void> {
  const database = new DatabaseSync(state);
  try {
    const store = sqliteOutboxStore({ database, table: outboxTable(database) });
    const client = new PaymentsClient({
      apiKey: CANARY_KEY,
      baseUrl: 'https://payments.invalid/api/v1/external',
    });
    await createPayoutOutbox({ client, store }).cancel(reference, { by: 'ops', note: 'no longer wanted' });
  } finally {
    database.close();
  }
}

/** The audit trail the record keeps for the key's own account's one payout. */
export function trail(state: string): { kind: string; status?: number; error?: string; detail?: string }[] {
  const db = new DatabaseSync(state);
  try {
    const row = db.prepare(`SELECT attempts FROM ${outboxTable(db)}`).get() as { attempts: string };
    return JSON.parse(row.attempts);
  } finally {
    db.close();
  }
}

/**
 * Counts the POST /payouts requests the mock sees from now on: a fault that never fires, only watches. (Where
 * the service deduplicates references, the ledger alone cannot show a second POST.)
 */
export function countPosts(server: MockServer): () => number {
  let posts = 0;
  server.mock.faults.next({
    status: 500,
    times: Number.MAX_SAFE_INTEGER,
    match: (r) => {
      if (r.method === 'POST' && r.path === '/payouts') posts++;
      return false;
    },
  });
  return () => posts;
}

/** A loopback proxy in front of the mock, keeping what crossed it. */
export interface RecordingProxy {
  /** The base URL to give the server instead of the mock's. */
  baseUrl: string;
  /** The JSON bodies of the POST /payouts requests that crossed it, parsed from the bytes as sent. */
  posted: () => Record<string, any>[];
  /** The GET /transactions requests that crossed it, by their query. */
  listings: () => URLSearchParams[];
  close: () => Promise<void>;
}

/**
 * A real HTTP proxy on loopback between the server and the mock, which records each payout POST's body exactly
 * as the server sent it (the mock reads a payout trimmed, as the service does, so its ledger cannot show what
 * was sent).
 */
export async function recordingProxy(target: MockServer): Promise<RecordingProxy> {
  const bodies: Record<string, any>[] = [];
  const listings: URLSearchParams[] = [];
  const upstream = new URL(target.baseUrl);
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', upstream.origin);
      if (req.method === 'POST' && url.pathname.endsWith('/payouts')) {
        bodies.push(JSON.parse(body.toString('utf8')));
      }
      if (req.method === 'GET' && url.pathname.endsWith('/transactions')) listings.push(url.searchParams);
      const headers = Object.entries(req.headers).flatMap(([name, value]) =>
        ['host', 'connection', 'content-length'].includes(name) || value === undefined
          ? []
          : [[name, String(value)] as [string, string]],
      );
      try {
        const answer = await fetch(url, {
          method: req.method ?? 'GET',
          headers,
          ...(body.length > 0 ? { body } : {}),
        });
        const text = Buffer.from(await answer.arrayBuffer());
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
            out[name] = value;
        });
        res.writeHead(answer.status, out).end(text);
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    posted: () => bodies,
    listings: () => listings,
    close: () =>
      new Promise((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
