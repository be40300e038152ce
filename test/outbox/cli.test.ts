/**
 * `payments-outbox`, the operator's command, against a real PostgreSQL and a SQLite file: `list`, `show` and
 * `stats` as tables and as JSON, `retry` and `resolve` writing the audit trail through the same code the workers
 * use, and one clear line for a bad URL, a missing file or a missing table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { main } from '../../src/outbox/cli.js';
import { listText } from '../../src/outbox/cli-text.js';
import {
  createPayoutOutbox,
  type PayoutOutboxStore,
  postgresOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import {
  createPaymentsMock,
  DEFAULT_API_KEY,
  FIXED_HISTORY_END,
  startMockServer,
} from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../helpers/postgres.js';

/** Runs the command in-process: its exit code, and what it wrote. */
function cli(...argv: string[]) {
  return cliWith({ USER: 'ada' }, ...argv);
}

/** The same, with an environment of its own. */
async function cliWith(env: NodeJS.ProcessEnv, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(argv, env);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** One payout `not_sent` (503s), one `unknown` (a cut 2xx never listed), one `created`. */
async function seed(store: PayoutOutboxStore<unknown>) {
  const mock = createPaymentsMock({ dedupeByReference: false });
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel: 'off',
  });
  const outbox = createPayoutOutbox({
    client,
    store,
    timeout: 1000,
    visibilityWaits: [0],
    maxSends: 1,
    maxLookups: 1,
    // Each doubt is proven (or not) within its one step: the rows are final when the commands read them.
    listingLagMs: 0,
  });
  await store.migrate();
  const body = (externalReference: string) => ({
    amount: '12.50',
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference,
  });
  mock.faults.next({ status: 503, match: 'POST /payouts' });
  await outbox.settle((await outbox.enqueue(body('cli-not-sent'))).reference);
  mock.faults.bodyFault('cut').listingLag(3_600_000);
  await outbox.settle((await outbox.enqueue(body('cli-unknown'))).reference);
  mock.faults.clear();
  await outbox.settle((await outbox.enqueue(body('cli-created'))).reference);
}

function commands(name: string, db: () => string) {
  describe(name, () => {
    it('stats: payouts per state, and the oldest open one', async () => {
      const { code, stdout } = await cli('stats', '--db', db());
      expect(code).toBe(0);
      expect(stdout).toMatch(/^STATE\s+PAYOUTS$/m);
      expect(stdout).toMatch(/^not_sent\s+1$/m);
      expect(stdout).toMatch(/^unknown\s+1$/m);
      expect(stdout).toMatch(/^created\s+1$/m);
      const json = JSON.parse((await cli('stats', '--db', db(), '--json')).stdout);
      expect(json.states).toMatchObject({ not_sent: 1, unknown: 1, created: 1, pending: 0 });
    });

    it('list --state unknown: the work queue as a table, and as JSON', async () => {
      const { code, stdout } = await cli('list', '--state', 'unknown', '--db', db());
      expect(code).toBe(0);
      expect(stdout.split('\n')[0]).toMatch(/^REFERENCE\s+STATE\s+AMOUNT\s+CREATED\s+NEXT ATTEMPT\s+WHY$/);
      expect(stdout).toMatch(/^cli-unknown\s+unknown\s+12\.50 USD\s/m);
      expect(stdout).not.toMatch(/cli-created/);
      const json = JSON.parse((await cli('list', '--state', 'unknown', '--db', db(), '--json')).stdout);
      expect(json).toEqual([expect.objectContaining({ reference: 'cli-unknown', state: 'unknown' })]);
    });

    it('show: the whole audit trail', async () => {
      const { code, stdout } = await cli('show', 'cli-created', '--db', db());
      expect(code).toBe(0);
      expect(stdout).toMatch(/^state\s+created$/m);
      expect(stdout).toMatch(/^AT\s+KIND\s+STATUS\s+ERROR\s+REQUEST ID\s+DETAIL$/m);
      expect(stdout).toMatch(/\spost\s+200\s+-\s+req_mock_\d+\s+created /);
    });

    it('retry and resolve write the audit trail, with who and why', async () => {
      const retried = await cli('retry', 'cli-not-sent', '--note', 'outage over', '--db', db());
      expect(retried).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('cli-not-sent: re-opened (retry)'),
      });
      const resolved = await cli(
        'resolve',
        'cli-unknown',
        '--outcome',
        'exists',
        '--by',
        'grace',
        '--db',
        db(),
        '--json',
      );
      expect(JSON.parse(resolved.stdout)).toMatchObject({ state: 'recovered' });
      const trail = JSON.parse((await cli('show', 'cli-not-sent', '--db', db(), '--json')).stdout).attempts;
      expect(trail.at(-1)).toMatchObject({ kind: 'operator', by: 'ada', detail: 'retry: outage over' });
      const again = await cli('resolve', 'cli-unknown', '--outcome', 'absent', '--db', db());
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        /^payments-outbox: .*is recovered: resolve: absent applies to unknown payouts only/,
      );
    });

    it('a missing table is one clear line, exit code 2', async () => {
      const { code, stderr } = await cli('stats', '--db', db(), '--table', 'no_such_table');
      expect(code).toBe(2);
      expect(stderr).toBe(
        `payments-outbox: no outbox table no_such_table in ${name === 'sqlite' ? db() : 'that database'} (run store.migrate() first, or pass --table)\n`,
      );
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'outbox-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'outbox.db');
beforeAll(() => seed(sqliteOutboxStore({ database: new DatabaseSync(file) })));
commands('sqlite', () => file);

describe.runIf(postgresAvailable())('postgres', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
    const pool = new pg.Pool({ connectionString: server.url, max: 2 });
    await seed(postgresOutboxStore({ client: pool }));
    await pool.end();
  });
  afterAll(() => server?.stop());
  commands('postgres', () => server.url);

  it('a database it cannot reach is one clear line, with no password in it', async () => {
    const { code, stderr } = await cli('stats', '--db', 'postgres://ops:s3cret@127.0.0.1:1/payments');
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^payments-outbox: cannot reach postgres:\/\/ops:\*\*\*@127\.0\.0\.1:1\/payments: /,
    );
    expect(stderr).not.toContain('s3cret');
  });
});

describe('reconcile and list --status', () => {
  it('prints the period’s differences as a table, as CSV and as JSON; lists sent payouts by their status', async () => {
    const server = await startMockServer({ historyEnd: FIXED_HISTORY_END, dedupeByReference: false });
    try {
      const db = join(dir, 'reconcile.db');
      const store = sqliteOutboxStore({ database: new DatabaseSync(db) });
      await store.migrate();
      const client = new PaymentsClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl: server.baseUrl,
        logLevel: 'off',
      });
      const outbox = createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0] });
      const body = (externalReference: string) => ({
        amount: '7.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
        externalReference,
      });
      for (const reference of ['rec-ok', 'rec-failed']) await outbox.enqueue(body(reference));
      await outbox.work({ until: 'drained' });
      server.mock.transactions.setStatus('rec-failed', 'failed');
      await outbox.work({ until: 'drained' });
      const byHand = server.mock.transactions.add({ description: 'Sent by hand', source_currency: 'USD' });
      // The period is the days the records and rows were made on, not the clock's day when it is read: a run
      // across UTC midnight would otherwise read a day without them.
      const from = (await outbox.get('rec-ok'))!.createdAt.toISOString().slice(0, 10);
      const to = byHand.created_at.slice(0, 10);
      const env = { PAYMENTS_API_KEY: DEFAULT_API_KEY, PAYMENTS_BASE_URL: server.baseUrl };
      const table = await cliWith(env, 'reconcile', '--from', from, '--to', to, '--db', db);
      // A difference: exit code 1, for a scheduler to alert on.
      expect(table.code).toBe(1);
      expect(table.stdout).toMatch(/^KIND\s+REFERENCE\s+TRANSACTION\s+EXPECTED\s+LISTED\s+DETAIL$/m);
      expect(table.stdout).toMatch(
        new RegExp(
          `^unrecorded\\s+${byHand.external_reference}\\s+${byHand.id}\\s+-\\s+1000\\.00 USD\\s+a withdrawal of 1000\\.00 USD \\(completed\\) listed under ${byHand.external_reference}`,
          'm',
        ),
      );
      expect(table.stdout).toMatch(
        /: 3 withdrawals listed, 2 payouts recorded, 1 differences; the listing was read to its end$/m,
      );
      const csv = await cliWith(env, 'reconcile', '--from', from, '--to', to, '--db', db, '--csv');
      expect(csv.stdout.split('\r\n')[0]).toBe(
        'kind,reference,transaction_id,listed_reference,expected,listed,detail',
      );
      const json = JSON.parse(
        (await cliWith(env, 'reconcile', '--from', from, '--to', to, '--db', db, '--json')).stdout,
      );
      expect(json).toMatchObject({ complete: true, listed: 3, rows: [{ kind: 'unrecorded' }] });
      const failed = await cli('list', '--status', 'failed', '--db', db);
      expect(failed.stdout).toMatch(/^rec-failed\s+created\s+7.00 USD/m);
      expect(failed.stdout).not.toMatch(/rec-ok/);
      expect(await cli('reconcile', '--from', from, '--to', to, '--db', db)).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/set PAYMENTS_API_KEY/),
      });
      expect(await cliWith(env, 'reconcile', '--from', 'yesterday', '--to', to, '--db', db)).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/--from must be a date/),
      });
    } finally {
      await server.close();
    }
  });
});

describe('reconcile --from and --to', () => {
  it('take a real day or a full timestamp with an offset, and refuse anything else naming the flag', async () => {
    // Never reached: the period is read before the database is opened, and the service after.
    const env = { PAYMENTS_API_KEY: DEFAULT_API_KEY, PAYMENTS_BASE_URL: 'http://127.0.0.1:1' };
    const missing = join(dir, 'no-such.db');
    const refused = [
      '2026-02-30', // no such day (new Date reads March 2nd)
      '2026-11-20T10:00:00', // no offset: this machine's time zone
      '2026-11-20T10:00Z', // no seconds
      'Nov 20 2026',
      '1732060800000',
      '',
    ];
    for (const value of refused) {
      for (const flag of ['--from', '--to']) {
        const other = flag === '--from' ? '--to' : '--from';
        const run = await cliWith(env, 'reconcile', flag, value, other, '2026-11-20', '--db', missing);
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(
          `payments-outbox: ${flag} must be a date (YYYY-MM-DD, a whole UTC day) or a full timestamp with seconds and an offset (2026-11-20T09:30:00Z); got ${JSON.stringify(value)}\n`,
        );
      }
    }
    // Accepted: the command goes on to open the database (and finds none).
    for (const value of ['2026-11-20', '2024-02-29', '2026-11-20T09:30:00Z', '2026-11-20T10:30:00.5+01:00']) {
      const run = await cliWith(env, 'reconcile', '--from', value, '--to', '2026-11-21', '--db', missing);
      expect(run).toMatchObject({ code: 2, stderr: expect.stringMatching(/no SQLite file/) });
    }
  });
});

describe('list --limit', () => {
  it('prints the same records as JSON as in the table', async () => {
    const db = join(dir, 'limit.db');
    const store = sqliteOutboxStore({ database: new DatabaseSync(db) });
    await store.migrate();
    const mock = createPaymentsMock({ dedupeByReference: false });
    const client = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      logLevel: 'off',
    });
    const outbox = createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0], maxLookups: 1 });
    const body = (externalReference: string) => ({
      amount: '3.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference,
    });
    // Two open or unknown payouts in two states: each state is read up to the limit.
    await outbox.enqueue(body('limit-pending'));
    mock.faults.bodyFault('cut').listingLag(3_600_000);
    await outbox.settle((await outbox.enqueue(body('limit-unknown'))).reference);
    const table = await cli('list', '--limit', '1', '--db', db);
    const rows = table.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(1);
    const json = JSON.parse((await cli('list', '--limit', '1', '--db', db, '--json')).stdout);
    expect(json.map((r: { reference: string }) => r.reference)).toEqual([rows[0]!.split(/\s+/)[0]]);
    expect(JSON.parse((await cli('list', '--db', db, '--json')).stdout)).toHaveLength(2);
  });
});

describe('amounts', () => {
  it('list writes an amount given in minor units in major units beside its currency, or names its minor units', () => {
    const record = (body: object) =>
      ({
        reference: 'r',
        state: 'pending',
        body: { beneficiary: BENEFICIARY, externalReference: 'r', ...body },
        createdAt: new Date(0),
        nextAttemptAt: new Date(0),
      }) as never;
    const text = listText([
      record({ amount: '12.50', currency: 'USD' }),
      record({ amountMinor: 1250, currency: 'usd' }),
      record({ amountMinor: 1250, currency: 'USDC' }),
    ]);
    const amounts = text
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s{2,}/)[2]);
    expect(amounts).toEqual(['12.50 USD', '12.50 USD', '1250 USDC minor units']);
  });
});

describe('usage', () => {
  it('--help prints the commands and exits 0; a mistake is one line and exit code 2', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^payments-outbox: the operator's command/);
    const verbs = [
      'list',
      'show',
      'stats',
      'retry',
      'cancel',
      'resolve',
      'enqueue',
      'work',
      'track',
      'reconcile',
    ];
    for (const verb of verbs) expect(help.stdout).toContain(`  ${verb} `);
    // The exit codes a scheduler reads, each documented.
    expect(help.stdout).toMatch(/^Exit codes:\n {2}0 .*\n {2}1 .*differences[\s\S]*\n {2}2 .*usage mistake/m);
    expect(await cli('stats')).toMatchObject({ code: 2, stderr: expect.stringMatching(/no database/) });
    expect(await cli('stats', '--db', join(dir, 'missing.db'))).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no SQLite file/),
    });
    expect(await cli('frobnicate', '--db', file)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown command frobnicate/),
    });
    expect(await cli('stats', '--bogus')).toMatchObject({ code: 2 });
  });
});
