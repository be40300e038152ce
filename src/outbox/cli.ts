import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { RequestValidationError } from '../index.js';
import { reconciliationCsv } from '../payouts/reconcile/reconcile.js';
import { isCalendarDate, isFullTimestamp } from '../rules/dates.js';
import { enqueueCommand, type Outcome, trackCommand, workCommand } from './cli-commands.js';
import { open, serviceClient, UsageError } from './cli-open.js';
import { listText, reconciliationText, showText, table } from './cli-text.js';
import type { PayoutOutbox } from './outbox.js';
import { DEFAULT_OUTBOX_TABLE } from './sql.js';
import { OPEN_STATES, type PayoutRecord, type PayoutState, STATES } from './types.js';

const USAGE = `payments-outbox: the operator's command for the payout outbox (payments-service-sdk/outbox)

Usage: payments-outbox <command> [options]

Look:
  list [--state S] [--limit N]     without a filter: every payout that needs a person (unknown, not_sent,
                                   refused, one whose worker's lease lapsed), each with why, then the open ones
  list --status S                  sent payouts whose own status is S (e.g. failed)
  show <reference>                 one payout: its lease, every attempt with its answer and request id, the
                                   last proof with the window it read
  stats                            payouts per state, and the oldest open one
Act (each recorded in the audit trail with --by and --note):
  retry <reference>                re-open a not_sent payout, or a refused one once its cause is fixed
  cancel <reference>               end a payout that never moved (pending, not_sent, refused): final
  resolve <reference> --outcome exists|absent
                                   your verdict on an unknown payout (absent: it is sent again, after a lookup)
Send and follow (read the service: PAYMENTS_API_KEY, PAYMENTS_BASE_URL):
  enqueue [FILE|-] [--format json|csv] [--digits N]
                                   record payouts, one a line: JSON (the body enqueue takes) or CSV (a header
                                   of amount, amountMinor, currency, externalReference, remark, payerNameId,
                                   accountName, accountNumber, bankName, bankCode, email). Checked as
                                   enqueue checks them; every line needs its externalReference. A bad line is
                                   named with its number and records nothing; the others are recorded
  work --until drained | --forever [--concurrency N]
                                   settle payouts: what is due, then a tracking round, then exit (a cron); or
                                   until SIGTERM or SIGINT (the steps in flight finish first)
  track <reference> [--timeout MS] follow a sent payout to a final status, recording each change
  reconcile --from T --to T [--csv]
                                   the listing of the period against the records sent in it: every
                                   difference (T: 2026-11-20, a whole UTC day, or a full timestamp
                                   with seconds and an offset, 2026-11-20T09:30:00Z)

Options:
  --db URL|PATH     postgres://... (the pg package must be installed), or a SQLite file.
                    Default: $DATABASE_URL
  --table NAME      the outbox table (default ${DEFAULT_OUTBOX_TABLE})
  --note TEXT       retry/cancel/resolve: why, kept in the audit trail
  --by NAME         retry/cancel/resolve: who (default: $USER)
  --json            print the same data as JSON, for scripts
  --csv             reconcile: the differences as CSV
  --help            this text

Environment: PAYMENTS_API_KEY, PAYMENTS_BASE_URL, PAYMENTS_SERVICE_ASSIGNED_CURRENCIES (your client's
serviceAssignedCurrencies, comma separated), PAYMENTS_LOG (off, error, warn, info, debug). Your app's
payoutLimits are not known here.

Exit codes:
  0  done; reconcile: no differences (stale records alone are not differences)
  1  reconcile: differences, or a listing not read to its end; enqueue: a line refused; track: no final
     status in time; any command: a verb refused, or a failure (the database, the service)
  2  a usage mistake: a bad argument, a missing database, table or environment variable
`;

/** The owner of this command's claims and the default `by` of its verbs: which command, where. */
const ownerName = (command: string) => `payments-outbox ${command}@${hostname()}:${process.pid}`;

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

/** A whole number flag, or undefined when not given. */
function whole(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`${flag} must be a whole number from ${min}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

const OPTIONS = {
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
  format: { type: 'string' },
  digits: { type: 'string' },
  until: { type: 'string' },
  forever: { type: 'boolean' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
} as const;

const COMMANDS = [
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
/** Commands that read or send to the service. */
const SERVICE = new Set(['enqueue', 'work', 'track', 'reconcile']);

/** `list` without a filter: what needs a person first (each with why), then the open payouts, oldest first. */
async function needsFirst(outbox: PayoutOutbox, limit: number): Promise<PayoutRecord[]> {
  const states: PayoutState[] = ['unknown', 'not_sent', 'refused', ...OPEN_STATES];
  const records = (await Promise.all(states.map((state) => outbox.list({ state, limit })))).flat();
  const needs = (r: PayoutRecord) => (r.attention ? 0 : 1);
  records.sort((a, b) => needs(a) - needs(b) || a.createdAt.getTime() - b.createdAt.getTime());
  return records.slice(0, limit);
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const [command, reference, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help')
    return { data: USAGE, text: USAGE, code: 0 };
  if (!COMMANDS.includes(command))
    throw new UsageError(`unknown command ${command} (${COMMANDS.join(', ')}; --help)`);
  if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
  const db = values.db ?? env.DATABASE_URL;
  if (!db)
    throw new UsageError('no database: pass --db postgres://... or a SQLite path, or set DATABASE_URL');
  if (command === 'work' && (values.until === undefined) === (values.forever !== true)) {
    throw new UsageError('work needs --until drained (a cron) or --forever (until SIGTERM), one of them');
  }
  if (values.until !== undefined && values.until !== 'drained')
    throw new UsageError('--until must be drained');
  const period =
    command === 'reconcile'
      ? { from: instant(values.from, '--from', false), to: instant(values.to, '--to', true) }
      : undefined;
  const concurrency = whole(values.concurrency, '--concurrency', 1);
  const timeout = whole(values.timeout, '--timeout', 1);
  const digits = whole(values.digits, '--digits', 0);
  const limit = whole(values.limit, '--limit', 1) ?? 100;
  const client = SERVICE.has(command) ? serviceClient(env, command, command === 'enqueue') : undefined;
  const input =
    command === 'enqueue'
      ? readFileSync(reference === undefined || reference === '-' ? 0 : reference, 'utf8')
      : undefined;
  const needReference = () => {
    if (!reference) throw new UsageError(`${command} needs a reference`);
    return reference;
  };
  const owner = ownerName(command);
  const { outbox, close } = await open(db, values.table ?? DEFAULT_OUTBOX_TABLE, client, owner);
  const done = (data: unknown, text: string, code = 0): Outcome => ({ data, text, code });
  const verb = { by: values.by ?? env.USER ?? 'operator', ...(values.note ? { note: values.note } : {}) };
  try {
    switch (command) {
      case 'list': {
        const state = values.state as PayoutState | undefined;
        if (state !== undefined && !(STATES as readonly string[]).includes(state)) {
          throw new UsageError(`--state must be one of: ${STATES.join(', ')}`);
        }
        const filter = { ...(state ? { state } : {}), ...(values.status ? { status: values.status } : {}) };
        const shown =
          state || values.status ? await outbox.list({ ...filter, limit }) : await needsFirst(outbox, limit);
        return done(shown, listText(shown));
      }
      case 'show': {
        const record = await outbox.get(needReference());
        if (!record) throw new UsageError(`no payout ${reference} in the outbox`);
        return done(record, showText(record));
      }
      case 'stats': {
        const { states, oldestOpen } = await outbox.count();
        const rows = STATES.map((s) => [s, String(states[s])]);
        const oldest = `oldest open: ${oldestOpen ? oldestOpen.toISOString() : 'none'}`;
        return done({ states, oldestOpen }, `${table([['STATE', 'PAYOUTS'], ...rows])}\n${oldest}`);
      }
      case 'retry': {
        const record = await outbox.retry(needReference(), verb);
        const how = record.state === 'retry' ? 'a worker sends it again' : record.state;
        return done(record, `${record.reference}: re-opened (${record.state}); ${how}`);
      }
      case 'cancel': {
        const record = await outbox.cancel(needReference(), verb);
        return done(record, `${record.reference}: cancelled (${record.reason}); no worker sends it`);
      }
      case 'resolve': {
        const outcome = values.outcome;
        if (outcome !== 'exists' && outcome !== 'absent')
          throw new UsageError('resolve needs --outcome exists or --outcome absent');
        const record = await outbox.resolve(needReference(), { ...verb, outcome });
        return done(record, `${record.reference}: ${record.state} (${record.reason})`);
      }
      case 'enqueue':
        return await enqueueCommand(outbox, { text: input!, path: reference, format: values.format, digits });
      case 'work':
        return await workCommand(outbox, { forever: values.forever === true, concurrency, owner });
      case 'track':
        return await trackCommand(outbox, client!, needReference(), timeout);
      default: {
        const report = await outbox.reconcile(period!);
        const differs = !report.complete || report.rows.some((r) => !r.stale);
        const text = values.csv ? reconciliationCsv(report).trimEnd() : reconciliationText(report);
        return { data: report, text, code: differs ? 1 : 0 };
      }
    }
  } finally {
    await close();
  }
}

/**
 * `payments-outbox`: runs one command. Its output on stdout (`--json`: as JSON), and its exit code (see USAGE): 0
 * done, 1 differences or a failure, 2 a usage mistake, with one line on stderr.
 */
export async function main(argv = process.argv.slice(2), env = process.env): Promise<number> {
  try {
    const json = argv.includes('--json') && !argv.includes('--csv');
    const outcome = await run(argv, env);
    process.stdout.write(`${json ? JSON.stringify(outcome.data, null, 2) : outcome.text}\n`);
    return outcome.code;
  } catch (error) {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof RequestValidationError ? error.message : (error as Error).message;
    process.stderr.write(`payments-outbox: ${message}\n`);
    return usage ? 2 : 1;
  }
}
