import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PaymentsClient } from 'payments-service-sdk';
import { createPayoutOutbox, type PayoutOutbox, sqliteOutboxStore } from 'payments-service-sdk/outbox';
import { ConfigError, type ServerConfig } from './config.js';
import { Guards } from './guards/guards.js';

/**
 * The server's durable record of every payout it sent: the SDK's outbox on one SQLite file (`PAYMENTS_MCP_STATE`),
 * a table per account, and beside it the guards' memory (guards/store.ts). A reference recorded as sent
 * (answered or not, `unknown` included) is never POSTed again by any later call or restart of the server, and
 * several server processes on one file share it safely (the outbox's leases, SQLite's write lock). The file is
 * the memory: deleting it forgets what was sent, the guards in force and the day's totals.
 */
export interface PayoutRecords {
  /** The outbox for an account (see `accountKey`), created and migrated on first use. */
  outboxFor(account: string, client: PaymentsClient): Promise<PayoutOutbox>;
  /** The outbox table of an account (see `accountKey`). */
  tableFor(account: string): string;
  /** Whether the server ever recorded a payout for the account (its table exists): a read creates nothing. */
  hasRecords(account: string): boolean;
  /** The operator's guards on payouts, kept in the same file. */
  guards: Guards;
}

/**
 * The account a call acts for, as the record keys it: the uuid in lower case (named by the call, or
 * `PAYMENTS_ACCOUNT_ID`), or for the key's own account `key:` and a digest of the key, so that servers of other
 * keys or other accounts on one state file never share a record.
 */
export function accountKey(
  accountId: string | undefined,
  config: Pick<ServerConfig, 'accountId' | 'apiKey'>,
) {
  const id = accountId ?? config.accountId;
  if (id) return id.toLowerCase();
  return `key:${createHash('sha256').update(config.apiKey).digest('hex').slice(0, 16)}`;
}

const OWN = 'key:';
/** Table names: an account id is a uuid (the SDK checked it), and a key's digest hex, so both are safe in SQL. */
const tableFor = (account: string) =>
  account.startsWith(OWN)
    ? `payout_outbox_key_${account.slice(OWN.length)}`
    : `payout_outbox_${account.replace(/-/g, '')}`;

/** Opens (or creates) the state file at start-up, so that a file it cannot open stops the server at once. */
export async function openRecords(config: ServerConfig): Promise<PayoutRecords> {
  // Loaded only when payouts are on: node:sqlite is built into Node 22.13 and later.
  const { DatabaseSync } = await import('node:sqlite');
  let database: InstanceType<typeof DatabaseSync>;
  try {
    mkdirSync(dirname(config.statePath), { recursive: true });
    database = new DatabaseSync(config.statePath);
    // Two server processes on one file queue for its write lock rather than fail; readers never block the writer.
    database.exec('PRAGMA busy_timeout = 10000');
    database.exec('PRAGMA journal_mode = WAL');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`PAYMENTS_MCP_STATE: cannot open ${JSON.stringify(config.statePath)} (${why})`);
  }
  const guards = new Guards(database, config.guards);
  const outboxes = new Map<string, Promise<PayoutOutbox>>();
  const exists = database.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`);
  return {
    guards,
    tableFor,
    hasRecords: (account) => exists.get(tableFor(account)) !== undefined,
    outboxFor(account, client) {
      let outbox = outboxes.get(account);
      if (!outbox) {
        outbox = (async () => {
          const store = sqliteOutboxStore({ database, table: tableFor(account) });
          await store.migrate();
          return createPayoutOutbox({
            client,
            store,
            owner: `payments-service-mcp-${process.pid}`,
            timeout: 30_000,
            ...(config.visibilityWaits ? { visibilityWaits: config.visibilityWaits } : {}),
            listingLagMs: config.listingLagMs,
            backoff: config.backoff,
            maxSends: 3,
          });
        })();
        outbox.catch(() => outboxes.delete(account));
        outboxes.set(account, outbox);
      }
      return outbox;
    },
  };
}
