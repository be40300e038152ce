import { PaymentsClient } from '../index.js';
import { type PayoutPort, providePayoutPort } from '../payouts/port.js';
import type { PayoutOutboxClient } from './options.js';
import { createPayoutOutbox, type PayoutOutbox } from './outbox.js';
import { type PostgresQueryable, postgresOutboxStore } from './postgres.js';
import { checkTable } from './sql.js';
import { sqliteOutboxStore } from './sqlite.js';

/** How `payments-outbox` opens its database and the service: one clear line for whatever is missing. */

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {}

/** A URL with its password left out, for an error message. */
export const redactUrl = (url: string) => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

const refuse = (what: string): never => {
  throw new Error(`payments-outbox does not ${what} here`);
};

/** The client of a command that reads the outbox only: it never checks, sends or looks a payout up. */
const READ_ONLY = {
  payouts: {
    check: () => refuse('record payouts'),
    assignsReference: () => false,
  },
  transactions: { list: () => refuse('read the listing') },
} as unknown as PayoutOutboxClient;

/**
 * The payout port of a client that never sends (`READ_ONLY`, and `enqueue`'s records-only one): the outbox takes
 * only a client with a port, and here every use of it refuses, naming what was asked. The outbox sends and looks
 * payouts up through the port only, so this is what keeps such a command from moving money.
 */
const REFUSING_PORT = new Proxy({} as PayoutPort, {
  get: (_, use) => refuse(use === 'post' || use === 'check' ? 'send payouts' : 'look payouts up'),
});
providePayoutPort(READ_ONLY.payouts, REFUSING_PORT);

/**
 * The client a command that reads or sends to the service uses, from the environment: PAYMENTS_API_KEY,
 * PAYMENTS_BASE_URL, PAYMENTS_SERVICE_ASSIGNED_CURRENCIES (your client's `serviceAssignedCurrencies`, comma
 * separated) and PAYMENTS_LOG. `recordOnly` (enqueue): nothing is sent, so a key is not required; the payouts
 * are checked as a client so configured checks them.
 */
export function serviceClient(env: NodeJS.ProcessEnv, command: string, recordOnly = false): PaymentsClient {
  const apiKey = env.PAYMENTS_API_KEY || (recordOnly ? 'payments-outbox-records-only' : undefined);
  if (!apiKey)
    throw new UsageError(`${command} reads the service: set PAYMENTS_API_KEY (and PAYMENTS_BASE_URL)`);
  const assigned = (env.PAYMENTS_SERVICE_ASSIGNED_CURRENCIES ?? '')
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  const level = env.PAYMENTS_LOG;
  const levels = ['off', 'error', 'warn', 'info', 'debug'];
  if (level !== undefined && !levels.includes(level))
    throw new UsageError(`PAYMENTS_LOG must be one of ${levels.join(', ')}, not ${level}`);
  const client = new PaymentsClient({
    apiKey,
    baseUrl: env.PAYMENTS_BASE_URL || (recordOnly ? 'https://payments.invalid' : undefined),
    serviceAssignedCurrencies: assigned,
    logLevel: (level as 'warn' | undefined) ?? 'warn',
  });
  if (!recordOnly) return client;
  // Records only: the client checks; it never sends or reads.
  const { payouts } = client;
  const checking = {
    check: payouts.check.bind(payouts),
    assignsReference: payouts.assignsReference.bind(payouts),
  };
  providePayoutPort(checking, REFUSING_PORT);
  return { payouts: checking, transactions: READ_ONLY.transactions } as unknown as PaymentsClient;
}

/** What a command opened: the outbox, and how to close its database. */
export interface Opened {
  outbox: PayoutOutbox;
  close: () => Promise<void>;
}

/** Opens the store the URL or path names, after checking the table is there; the outbox on `client`. */
export async function open(
  db: string,
  table: string,
  client: PayoutOutboxClient | undefined,
  owner: string,
): Promise<Opened> {
  checkTable(table);
  const outboxOn = (store: Parameters<typeof createPayoutOutbox>[0]['store']) =>
    createPayoutOutbox({
      client: client ?? READ_ONLY,
      store,
      owner,
      // The read-only commands follow nothing; `work` follows what it sends.
      ...(client ? {} : { tracking: false as const }),
    });
  if (/^postgres(ql)?:\/\//.test(db)) {
    let pg: { default: { Pool: new (options: object) => PostgresQueryable & { end(): Promise<void> } } };
    try {
      pg = (await import('pg' as string)) as typeof pg;
    } catch {
      throw new UsageError('a postgres:// database needs the pg package: npm install pg');
    }
    const pool = new pg.default.Pool({ connectionString: db, max: 4 });
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
    return { outbox: outboxOn(postgresOutboxStore({ client: pool, table })), close };
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
  return { outbox: outboxOn(sqliteOutboxStore({ database, table })), close: async () => database.close() };
}
