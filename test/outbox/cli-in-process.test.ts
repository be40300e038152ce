/**
 * `payments-outbox enqueue`, `work` and `track` run in this process (test/outbox/cli-process.test.ts runs the same
 * commands as a real process, on SQLite and PostgreSQL): lines read from CSV and JSON files, each bad one named,
 * then drained, sent and followed against the mock service on loopback.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { main } from '../../src/outbox/cli.js';
import { sqliteOutboxStore } from '../../src/outbox/index.js';
import { DEFAULT_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'outbox-cli-'));
let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ dedupeByReference: false });
  const database = new DatabaseSync(join(dir, 'outbox.db'));
  await sqliteOutboxStore({ database }).migrate();
  database.close();
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a command in-process with the service's environment: its exit code, and what it wrote. */
async function cli(...argv: string[]) {
  let stdout = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  let stderr = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const env = {
    PAYMENTS_API_KEY: DEFAULT_API_KEY,
    PAYMENTS_BASE_URL: server.baseUrl,
    PAYMENTS_LOG: 'error',
    USER: 'ada',
  };
  try {
    return { code: await main([...argv, '--db', join(dir, 'outbox.db')], env), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const b = BENEFICIARY;
const row = (amount: string, reference: string) =>
  `${amount},USD,${reference},,"${b.accountName}",${b.accountNumber},${b.bankName},${b.bankCode},${b.email}`;

it('enqueue from CSV and JSON files records the good lines and names each bad one; work drains; track follows', async () => {
  const csv = join(dir, 'payouts.csv');
  const header = 'amount,currency,externalReference,remark,accountName,accountNumber,bankName,bankCode,email';
  writeFileSync(
    csv,
    [header, row('12.50', 'in-ok'), row('12.5.0', 'in-bad'), '', row('3.00', '')].join('\n'),
  );
  const fromCsv = await cli('enqueue', csv);
  expect(fromCsv.code, fromCsv.stderr).toBe(1);
  expect(fromCsv.stdout).toMatch(/^line 2: in-ok recorded \(pending\)$/m);
  expect(fromCsv.stdout).toMatch(/^line 3: NOT recorded: amount: /m);
  expect(fromCsv.stdout).toMatch(/^line 5: NOT recorded: externalReference: is required here/m);

  const json = join(dir, 'payouts.jsonl');
  const line = JSON.stringify({
    amount: '8.00',
    currency: 'USD',
    beneficiary: b,
    externalReference: 'in-json',
  });
  writeFileSync(json, `${line}\n{"amount": 5\n`);
  const fromJson = await cli('enqueue', json, '--json');
  expect(fromJson.code).toBe(1);
  const report = JSON.parse(fromJson.stdout);
  expect(report.recorded).toEqual([{ line: 1, reference: 'in-json', enqueued: true, state: 'pending' }]);
  expect(JSON.stringify(report)).toMatch(/is not JSON/);

  const drained = await cli('work', '--until', 'drained', '--json');
  expect(drained.code).toBe(0);
  expect(JSON.parse(drained.stdout).settled).toEqual({ created: 2 });

  // A payout never sent cannot be followed.
  expect((await cli('track', 'in-bad')).code).toBe(2);
  const tracked = await cli('track', 'in-ok', '--timeout', '1000', '--json');
  // The mock leaves a payout processing: the second it was given runs out first, exit code 1, saying so.
  expect(tracked.code, tracked.stderr).toBe(1);
  expect(JSON.parse(tracked.stdout)).toMatchObject({
    record: { reference: 'in-ok' },
    error: expect.any(String),
  });
});
