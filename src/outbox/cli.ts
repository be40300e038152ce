import { parseArgs } from 'node:util';
import { PaymentsClient, RequestValidationError } from '../index.js';
import { reconciliationCsv } from '../payouts/reconcile/reconcile.js';
import { isCalendarDate, isFullTimestamp } from '../rules/dates.js';
import { listText, reconciliationText, showText, table } from './cli-text.js';
import type { PayoutOutboxClient } from './options.js';
import { createPayoutOutbox, type PayoutOutbox } from './outbox.js';
import { type PostgresQueryable, postgresOutboxStore } from './postgres.js';
import { checkTable, DEFAULT_OUTBOX_TABLE } from './sql.js';
import { sqliteOutboxStore } from './sqlite.js';
import { OPEN_STATES, type PayoutState, STATES } from './types.js';

const USAGE = `payments-outbox: the operator's command for the payout outbox (payments-service-sdk/outbox)

Usage: payments-outbox <command> [options]

Commands:
  list [--state S] [--limit N]     payouts, oldest first (default: every open or unknown one)
  show <reference>                 one payout with its whole audit trail
  stats                            payouts per state, and the oldest open one
  list --status S                  sent payouts whose own status is S (e.g. failed)
  retry <reference>                re-open a not_sent payout, or a refused one once its cause is fixed
  resolve <reference> --outcome exists|absent
                                   your verdict on an unknown payout (absent: it is sent again, after a lookup)
  reconcile --from T --to T [--csv]
                                   the listing of the period against the records sent in it: every
                                   difference (T: 2026-11-20, a whole UTC day, or a full timestamp
                                   with seconds and an offset, 2026-11-20T09:30:00Z).
                                   Reads the service: PAYMENTS_API_KEY (and PAYMENTS_BASE_URL)

Options:
  --db URL|PATH     postgres://... (the pg package must be installed), or a SQLite file.
                    Default: $DATABASE_URL
  --table NAME      the outbox table (default ${DEFAULT_OUTBOX_TABLE})
  --note TEXT       retry/resolve: why, kept in the audit trail
  --by NAME         retry/resolve: who (default: $USER)
  --json            print the same data as JSON, for scripts
  --csv             reconcile: the differences as CSV
  --help            this text
`;

/** Refused: the operator's command never sends a payout (retry and resolve only re-open a row for the workers). */
const NO_SENDING: PayoutOutboxClient['payouts'] = {
  check: () => {
    throw new Error('payments-outbox does not record payouts');
  },
  create: () => {
    throw new Error('payments-outbox does not send payouts');
  },
  search: () => Promise.reject(new Error('payments-outbox does not look payouts up')),
  assignsReference: () => false,
};

class UsageError extends Error {}

/** Opens the store the URL or path names, after checking the table is there. */
async function open(
  db: string,
  table: string,
  client?: PayoutOutboxClient,
): Promise<{ outbox: PayoutOutbox; close: () => Promise<void> }> {
  checkTable(table);
  if (/^postgres(ql)?:\/\//.test(db)) {
    let pg: { default: { Pool: new (options: object) => PostgresQueryable & { end(): Promise<void> } } };
    try {
      pg = (await import('pg' as string)) as typeof pg;
    } catch {
      throw new UsageError('a postgres:// database needs the pg package: npm install pg');
    }
    const pool = new pg.default.Pool({ connectionString: db, max: 1 });
    const close = () => pool.end();
    try {
      const { rows } = await pool.query('SELECT to_regclass($1) AS found', [table]);
      if (rows[0]?.found === null)
        throw new UsageError(
          `no outbox table ${table} in that database (run store.migrate() first, or pass --table)`,
        );
    } catch (error) {
      await close();
      throw error instanceof UsageError
        ? error
        : new UsageError(`cannot reach ${redactUrl(db)}: ${(error as Error).message}`);
    }
    return { outbox: outboxOn(postgresOutboxStore({ client: pool, table }), client), close };
  }
  const { existsSync } = await import('node:fs');
  if (!existsSync(db)) throw new UsageError(`no SQLite file at ${db} (pass --db, or set DATABASE_URL)`);
  const { DatabaseSync } = await import('node:sqlite');
  const database = new DatabaseSync(db);
  const found = database
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .get(table);
  if (!found) {
    database.close();
    throw new UsageError(`no outbox table ${table} in ${db} (run store.migrate() first, or pass --table)`);
  }
  return {
    outbox: outboxOn(sqliteOutboxStore({ database, table }), client),
    close: async () => database.close(),
  };
}

const outboxOn = (store: Parameters<typeof createPayoutOutbox>[0]['store'], client?: PayoutOutboxClient) =>
  createPayoutOutbox({
    client: client ?? { payouts: NO_SENDING, transactions: { list: () => refuse('read the listing') } },
    store,
    owner: 'payments-outbox',
    tracking: false,
  });

/**
 * `2026-11-20` (the whole UTC day: its first or last instant) or a full timestamp with seconds and an offset.
 * Nothing else: `new Date` would take `2026-02-30` as March 2nd, a time without an offset in this machine's time
 * zone, and `Nov 20 2026` as it likes, and finance would read another period than the one they named.
 */
function instant(value: string | undefined, flag: string, end: boolean): Date {
  if (value === undefined) throw new UsageError(`reconcile needs ${flag}`);
  if (isCalendarDate(value)) return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  if (isFullTimestamp(value)) return new Date(value);
  throw new UsageError(
    `${flag} must be a date (YYYY-MM-DD, a whole UTC day) or a full timestamp with seconds and an offset (2026-11-20T09:30:00Z); got ${JSON.stringify(value)}`,
  );
}

/** The client a reconciliation reads the listing with, from the environment. */
function serviceClient(env: NodeJS.ProcessEnv): PaymentsClient {
  if (!env.PAYMENTS_API_KEY)
    throw new UsageError('reconcile reads the service: set PAYMENTS_API_KEY (and PAYMENTS_BASE_URL)');
  return new PaymentsClient({
    apiKey: env.PAYMENTS_API_KEY,
    ...(env.PAYMENTS_BASE_URL ? { baseUrl: env.PAYMENTS_BASE_URL } : {}),
    logLevel: 'error',
  });
}

const refuse = (what: string): never => {
  throw new Error(`payments-outbox does not ${what} here`);
};

/** A URL with its password left out, for an error message. */
const redactUrl = (url: string) => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      table: { type: 'string' },
      state: { type: 'string' },
      limit: { type: 'string' },
      status: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      csv: { type: 'boolean' },
      outcome: { type: 'string' },
      note: { type: 'string' },
      by: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const [command, reference, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') return USAGE;
  if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
  const db = values.db ?? env.DATABASE_URL;
  if (!db)
    throw new UsageError('no database: pass --db postgres://... or a SQLite path, or set DATABASE_URL');
  const client = command === 'reconcile' ? serviceClient(env) : undefined;
  const period =
    command === 'reconcile'
      ? { from: instant(values.from, '--from', false), to: instant(values.to, '--to', true) }
      : undefined;
  const { outbox, close } = await open(db, values.table ?? DEFAULT_OUTBOX_TABLE, client);
  const print = (data: unknown, text: string) => (values.json ? JSON.stringify(data, null, 2) : text);
  const needReference = () => {
    if (!reference) throw new UsageError(`${command} needs a reference`);
    return reference;
  };
  const verb = { by: values.by ?? env.USER ?? 'operator', ...(values.note ? { note: values.note } : {}) };
  try {
    switch (command) {
      case 'list': {
        const state = values.state as PayoutState | undefined;
        if (state !== undefined && !(STATES as readonly string[]).includes(state)) {
          throw new UsageError(`--state must be one of: ${STATES.join(', ')}`);
        }
        const limit = values.limit === undefined ? 100 : Number(values.limit);
        const states = state || values.status ? [state] : ([...OPEN_STATES, 'unknown'] as PayoutState[]);
        const status = values.status === undefined ? {} : { status: values.status };
        const records = (
          await Promise.all(states.map((s) => outbox.list({ ...(s ? { state: s } : {}), ...status, limit })))
        ).flat();
        records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
        // Each state was read up to the limit: the oldest `limit` of them all, as JSON as in the table.
        const shown = records.slice(0, limit);
        return print(shown, listText(shown));
      }
      case 'show': {
        const record = await outbox.get(needReference());
        if (!record) throw new UsageError(`no payout ${reference} in the outbox`);
        return print(record, showText(record));
      }
      case 'stats': {
        const { states, oldestOpen } = await outbox.count();
        const rows = STATES.map((s) => [s, String(states[s])]);
        const oldest = `oldest open: ${oldestOpen ? oldestOpen.toISOString() : 'none'}`;
        return print({ states, oldestOpen }, `${table([['STATE', 'PAYOUTS'], ...rows])}\n${oldest}`);
      }
      case 'retry': {
        const record = await outbox.retry(needReference(), verb);
        return print(
          record,
          `${record.reference}: re-opened (${record.state}); a worker sends it after a lookup`,
        );
      }
      case 'resolve': {
        const outcome = values.outcome;
        if (outcome !== 'exists' && outcome !== 'absent')
          throw new UsageError('resolve needs --outcome exists or --outcome absent');
        const record = await outbox.resolve(needReference(), { ...verb, outcome });
        return print(record, `${record.reference}: ${record.state} (${record.reason})`);
      }
      case 'reconcile': {
        const report = await outbox.reconcile(period!);
        if (values.csv) return reconciliationCsv(report).trimEnd();
        return print(report, reconciliationText(report));
      }
      default:
        throw new UsageError(
          `unknown command ${command} (list, show, stats, retry, resolve, reconcile; --help)`,
        );
    }
  } finally {
    await close();
  }
}

/**
 * `payments-outbox`: runs one command. Exit code 0 with its output on stdout, or one line on stderr: 2 for a
 * usage mistake (a bad argument, a missing table), 1 for anything else.
 */
export async function main(argv = process.argv.slice(2), env = process.env): Promise<number> {
  try {
    process.stdout.write(`${await run(argv, env)}\n`);
    return 0;
  } catch (error) {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof RequestValidationError ? error.message : (error as Error).message;
    process.stderr.write(`payments-outbox: ${message}\n`);
    return usage ? 2 : 1;
  }
}
