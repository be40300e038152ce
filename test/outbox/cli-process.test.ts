/**
 * An operator's session with `payments-outbox` run as a real process, on a SQLite file and on a real PostgreSQL,
 * against the mock service on loopback: enqueue from CSV and JSON lines (a bad line named by its number, nothing
 * recorded for it), work until drained (and forever, until SIGTERM), list what needs a person first with why
 * (never cut mid-word), show the lease of a worker killed mid-POST and the last proof with its window, cancel,
 * retry a refused payout (refused again, not unknown), track a payout to its final status, and reconcile with
 * the exit codes a scheduler reads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, type Transaction } from '../../src/index.js';
import {
  createPayoutOutbox,
  type PayoutOutboxStore,
  type PayoutRecord,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import {
  DEFAULT_API_KEY,
  FIXED_HISTORY_END,
  type MockServer,
  startMockServer,
} from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { bundleOutboxCli, runCli, startCli } from '../helpers/outbox-cli.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'outbox-cli-process-'));
let bundle: string;
let server: MockServer;

beforeAll(async () => {
  bundle = await bundleOutboxCli();
  server = await startMockServer({ historyEnd: FIXED_HISTORY_END, dedupeByReference: false });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  if (bundle) rmSync(bundle, { force: true });
});

const CSV = `amount,currency,externalReference,remark,accountName,accountNumber,bankName,bankCode,email
12.50,USD,op-ok,,${BENEFICIARY.accountName},${BENEFICIARY.accountNumber},${BENEFICIARY.bankName},${BENEFICIARY.bankCode},${BENEFICIARY.email}
99999999.00,USD,op-short,,${BENEFICIARY.accountName},${BENEFICIARY.accountNumber},${BENEFICIARY.bankName},${BENEFICIARY.bankCode},${BENEFICIARY.email}
12.5.0,USD,op-bad-amount,,${BENEFICIARY.accountName},${BENEFICIARY.accountNumber},${BENEFICIARY.bankName},${BENEFICIARY.bankCode},${BENEFICIARY.email}

3.00,USD,,"no reference, so not recorded",${BENEFICIARY.accountName},${BENEFICIARY.accountNumber},${BENEFICIARY.bankName},${BENEFICIARY.bankCode},${BENEFICIARY.email}
`;

const jsonLine = (externalReference: string, amount = '8.00') =>
  JSON.stringify({ amount, currency: 'USD', beneficiary: BENEFICIARY, externalReference });

/** Payouts the CLI cannot make quickly: `not_sent` (a 503 proven absent at once), `unknown`, and a dead worker's. */
async function seedByHand(store: PayoutOutboxStore<unknown>, lapse: (reference: string) => Promise<void>) {
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.baseUrl, logLevel: 'off' });
  const outbox = createPayoutOutbox({
    client,
    store,
    timeout: 2000,
    visibilityWaits: [0],
    maxSends: 1,
    maxLookups: 1,
    listingLagMs: 0,
    tracking: false,
  });
  const body = (externalReference: string) => ({
    amount: '4.00',
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference,
  });
  server.mock.faults.next({ status: 503, match: 'POST /payouts' });
  await outbox.enqueue(body('op-not-sent'));
  expect((await outbox.settle('op-not-sent')).state).toBe('not_sent');
  server.mock.faults.bodyFault('cut').listingLag(24 * 3_600_000);
  await outbox.enqueue(body('op-unknown'));
  expect((await outbox.settle('op-unknown')).state).toBe('unknown');
  server.mock.faults.clear();
  // A worker killed mid-POST: its claim marked the payout, and its lease ended with nothing written.
  await outbox.enqueue(body('op-dead'));
  const [claimed] = await store.claim('worker-7', 60_000, 'op-dead', 1, true);
  expect(claimed).toMatchObject({ state: 'sending', sends: 1 });
  await lapse('op-dead');
}

/** The WHY cell is the record's `attention` whole, or its start cut at a word's end with an ellipsis. */
function cutAtWordEnd(cell: string, whole: string) {
  if (cell === whole) return true;
  if (!cell.endsWith('…')) return false;
  const kept = cell.slice(0, -1);
  return whole.startsWith(kept) && whole[kept.length] === ' ';
}

async function session(
  env: Record<string, string>,
  store: PayoutOutboxStore<unknown>,
  lapse: (r: string) => Promise<void>,
) {
  const cli = (...args: string[]) => runCli(bundle, env, args);
  const show = async (reference: string) =>
    JSON.parse((await cli('show', reference, '--json')).stdout) as PayoutRecord;

  // Enqueue from CSV: the good lines are recorded, each bad one named with its line number.
  const csvFile = join(dir, `payouts-${env.OUTBOX_NAME}.csv`);
  writeFileSync(csvFile, CSV);
  const csv = await cli('enqueue', csvFile);
  expect(csv.code).toBe(1);
  expect(csv.stdout).toMatch(/^line 2: op-ok recorded \(pending\)$/m);
  expect(csv.stdout).toMatch(/^line 3: op-short recorded \(pending\)$/m);
  expect(csv.stdout).toMatch(/^line 4: NOT recorded: amount: /m);
  expect(csv.stdout).toMatch(/^line 6: NOT recorded: externalReference: is required here/m);
  expect(csv.stdout).toMatch(/4 payout line\(s\): 2 recorded, 0 already recorded, 2 refused$/m);
  expect(await store.get('op-bad-amount')).toBeUndefined();
  // JSON lines on stdin; the same input again records nothing twice.
  const lines = `${jsonLine('op-json')}\n{"amount": 5\n${jsonLine('op-short-2', '99999999.00')}\n`;
  const json = await runCli(bundle, env, ['enqueue', '-', '--format', 'json'], lines);
  expect(json.code).toBe(1);
  expect(json.stdout).toMatch(/^line 2: NOT recorded: is not JSON/m);
  const again = await runCli(bundle, env, ['enqueue', '-', '--json'], `${jsonLine('op-json')}\n`);
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout).recorded).toEqual([
    { line: 1, reference: 'op-json', enqueued: false, state: 'pending' },
  ]);

  // Work until drained: sent, refused, and followed once before it exits.
  const drained = await cli('work', '--until', 'drained', '--json');
  expect(drained.code).toBe(0);
  const summary = JSON.parse(drained.stdout);
  expect(summary.settled).toEqual({ created: 2, refused: 2 });
  expect(summary.tracking.rounds, drained.stderr).toBe(1);
  expect((await show('op-ok')).status).toBe('processing');

  await seedByHand(store, lapse);

  // What needs a person comes first, each with why; the open ones after.
  const listed = await cli('list');
  expect(listed.code).toBe(0);
  const records = JSON.parse((await cli('list', '--json')).stdout) as PayoutRecord[];
  const needs = ['op-short', 'op-short-2', 'op-not-sent', 'op-unknown', 'op-dead'];
  expect(
    records
      .slice(0, needs.length)
      .map((r) => r.reference)
      .sort(),
  ).toEqual([...needs].sort());
  expect(records.every((r, i) => i < needs.length === (r.attention !== undefined))).toBe(true);
  const rows = listed.stdout.split('\n').slice(1, 1 + needs.length);
  const whyAt = listed.stdout.split('\n')[0]!.indexOf('WHY');
  for (const row of rows) {
    const reference = row.split(/\s+/)[0]!;
    const record = records.find((r) => r.reference === reference)!;
    expect(cutAtWordEnd(row.slice(whyAt), record.attention!)).toBe(true);
  }
  expect(listed.stdout).toMatch(/^op-dead\s+sending \(lease lapsed\)/m);
  expect(listed.stdout).toMatch(/^op-unknown\s+unknown\s.*may have moved money/m);

  // show: the dead worker's lease and the POST it marked, unanswered; the last proof and its window.
  const dead = await cli('show', 'op-dead');
  expect(dead.stdout).toMatch(/^lease\s+LAPSED: worker-7 held it until \d{4}-\d\d-\d\dT/m);
  expect(dead.stdout).toMatch(/\spost\s+-\s+-\s+-\s+marked by worker-7: no answer recorded/);
  const notSent = await cli('show', 'op-not-sent');
  expect(notSent.stdout).toMatch(
    /^last proof\s+absent at \S+, the listing read from \S+Z to \S+Z \(req_mock_\d+\)$/m,
  );
  expect(notSent.stdout).toMatch(/\spost\s+503\s+\S+Error\s+req_mock_\d+\s+503 /);

  // cancel: final and audited; one that moved is refused, naming its state.
  const cancel = await runCli(bundle, { ...env, USER: 'ada' }, [
    'cancel',
    'op-short',
    '--note',
    'customer gave up',
  ]);
  expect(cancel).toMatchObject({ code: 0, stdout: expect.stringMatching(/op-short: cancelled/) });
  const cancelled = await show('op-short');
  expect(cancelled.state).toBe('cancelled');
  expect(cancelled.attempts.at(-1)).toMatchObject({
    kind: 'operator',
    by: 'ada',
    detail: 'cancel: customer gave up',
  });
  expect(await cli('cancel', 'op-ok')).toMatchObject({
    code: 1,
    stderr: expect.stringMatching(
      /is created: cancel applies to pending or not_sent or refused payouts only/,
    ),
  });
  expect(await cli('cancel')).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/cancel needs a reference/),
  });

  // retry of a refused payout, its cause not fixed: refused again, not unknown.
  expect((await cli('retry', 'op-short-2')).code).toBe(0);
  expect((await cli('work', '--until', 'drained')).code).toBe(0);
  const refused = await show('op-short-2');
  expect(refused.state).toBe('refused');
  expect(refused.attempts.filter((a) => a.kind === 'post').map((a) => a.status)).toEqual([400, 400]);

  // track: to its final status, recorded; a payout never sent cannot be followed.
  server.mock.transactions.setStatus((await show('op-ok')).payout!.id, 'completed');
  const tracked = await cli('track', 'op-ok', '--timeout', '60000');
  expect(tracked).toMatchObject({ code: 0, stdout: expect.stringMatching(/completed \(final\)/) });
  expect((await show('op-ok')).status).toBe('completed');
  expect((await cli('track', 'op-short-2')).code).toBe(1);
  expect((await cli('work')).code).toBe(2);
}

function reconcileExits(env: Record<string, string>, table: string[] = []) {
  return async () => {
    const clean = await startMockServer({ historyEnd: FIXED_HISTORY_END });
    try {
      const at = { ...env, PAYMENTS_BASE_URL: clean.baseUrl };
      const cli = (...args: string[]) => runCli(bundle, at, [...args, ...table]);
      // The period runs from the day the run began to the day it is read: a run across UTC midnight still holds
      // the record and the rows.
      const today = () => new Date().toISOString().slice(0, 10);
      const day = today();
      expect((await runCli(bundle, at, ['enqueue', '-', ...table], `${jsonLine('rec-1')}\n`)).code).toBe(0);
      expect((await cli('work', '--until', 'drained')).code).toBe(0);
      const ok = await cli('reconcile', '--from', day, '--to', today());
      expect(ok).toMatchObject({ code: 0, stdout: expect.stringMatching(/0 differences/) });
      // A withdrawal no record accounts for: shown by the reference it is listed under, and its id.
      const stray = clean.mock.transactions.add({
        description: 'By hand',
        source_currency: 'USD',
      }) as Transaction;
      const differs = await cli('reconcile', '--from', day, '--to', today());
      expect(differs.code).toBe(1);
      expect(differs.stdout).toMatch(
        new RegExp(`^unrecorded\\s+${stray.external_reference}\\s+${stray.id}\\s`, 'm'),
      );
      expect((await cli('reconcile', '--from', 'yesterday', '--to', day)).code).toBe(2);
    } finally {
      await clean.close();
    }
  };
}

const apiEnv = () => ({
  PAYMENTS_API_KEY: DEFAULT_API_KEY,
  PAYMENTS_BASE_URL: server.baseUrl,
  PAYMENTS_LOG: 'error',
});

describe('sqlite', () => {
  it('an operator session', async () => {
    const file = join(dir, 'session.db');
    const database = new DatabaseSync(file);
    try {
      const store = sqliteOutboxStore({ database });
      await store.migrate();
      const lapse = async (reference: string) => {
        database
          .prepare('UPDATE payout_outbox SET lease_until = ? WHERE reference = ?')
          .run(Date.now() - 1000, reference);
      };
      await session({ ...apiEnv(), DATABASE_URL: file, OUTBOX_NAME: 'sqlite' }, store, lapse);
    } finally {
      database.close();
    }
  }, 120_000);

  it('reconcile exits 0 when clean, 1 on differences, 2 on a usage mistake', async () => {
    const file = join(dir, 'reconcile.db');
    const database = new DatabaseSync(file);
    await sqliteOutboxStore({ database }).migrate();
    database.close();
    await reconcileExits({ ...apiEnv(), DATABASE_URL: file })();
  }, 60_000);

  it('work --forever ends on SIGTERM, after its steps, with a summary and exit 0', async () => {
    const file = join(dir, 'forever.db');
    const database = new DatabaseSync(file);
    await sqliteOutboxStore({ database }).migrate();
    database.close();
    const env = { ...apiEnv(), DATABASE_URL: file };
    expect((await runCli(bundle, env, ['enqueue', '-'], `${jsonLine('forever-1')}\n`)).code).toBe(0);
    const { child, done } = await startCli(bundle, env, ['work', '--forever'], /working until SIGTERM/);
    child.kill('SIGTERM');
    const run = await done;
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(run.stdout).toMatch(/^left open: \d+/m);
  }, 60_000);
});

describe.runIf(postgresAvailable())('postgres', () => {
  let pgServer: TestPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    pgServer = await startPostgres();
    pool = new pg.Pool({ connectionString: pgServer.url, max: 4 });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    pgServer?.stop();
  });

  it('an operator session', async () => {
    const store = postgresOutboxStore({ client: pool });
    await store.migrate();
    const lapse = async (reference: string) => {
      await pool.query(
        `UPDATE payout_outbox SET lease_until = now() - interval '1 second' WHERE reference = $1`,
        [reference],
      );
    };
    await session({ ...apiEnv(), DATABASE_URL: pgServer.url, OUTBOX_NAME: 'pg' }, store, lapse);
  }, 120_000);

  it('reconcile exits 0 when clean, 1 on differences, 2 on a usage mistake', async () => {
    await pool.query('CREATE SCHEMA IF NOT EXISTS rec');
    await postgresOutboxStore({ client: pool, table: 'rec.payout_outbox' }).migrate();
    await reconcileExits({ ...apiEnv(), DATABASE_URL: pgServer.url }, ['--table', 'rec.payout_outbox'])();
  }, 60_000);
});
