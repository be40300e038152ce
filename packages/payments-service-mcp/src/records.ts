import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PaymentsClient } from 'payments-service-sdk';
import { createPayoutOutbox, type PayoutOutbox, sqliteOutboxStore } from 'payments-service-sdk/outbox';
import type { ServerConfig } from './config.js';

/**
 * The server's durable record of every payout it sent: the SDK's outbox on one SQLite file (`PAYMENTS_MCP_STATE`),
 * a table per account. A reference recorded as sent (answered or not, `unknown` included) is never POSTed again
 * by any later call or restart of the server, and several server processes on one file share it safely (the
 * outbox's leases). The file is the memory: deleting it forgets what was sent.
 */
export interface PayoutRecords {
  /** The outbox for an account (`undefined`: the server's own), created and migrated on first use. */
  outboxFor(accountId: string | undefined, client: PaymentsClient): Promise<PayoutOutbox>;
}

export function openRecords(config: ServerConfig): PayoutRecords {
  const outboxes = new Map<string, Promise<PayoutOutbox>>();
  let database: Promise<import('node:sqlite').DatabaseSync> | undefined;
  const open = () => {
    database ??= (async () => {
      mkdirSync(dirname(config.statePath), { recursive: true });
      // Loaded only when payouts are on: node:sqlite is built into Node 22.13 and later.
      const { DatabaseSync } = await import('node:sqlite');
      return new DatabaseSync(config.statePath);
    })();
    return database;
  };
  return {
    outboxFor(accountId, client) {
      const key = accountId?.toLowerCase() ?? '';
      let outbox = outboxes.get(key);
      if (!outbox) {
        outbox = (async () => {
          // An account id is a uuid (the SDK checked it), so its hex is a safe table name.
          const table = key ? `payout_outbox_${key.replace(/-/g, '')}` : 'payout_outbox';
          const store = sqliteOutboxStore({ database: await open(), table });
          await store.migrate();
          return createPayoutOutbox({
            client,
            store,
            owner: `payments-service-mcp-${process.pid}`,
            timeout: 30_000,
            ...(config.visibilityWaits ? { visibilityWaits: config.visibilityWaits } : {}),
            backoff: config.backoff,
            maxSends: 3,
          });
        })();
        outbox.catch(() => outboxes.delete(key));
        outboxes.set(key, outbox);
      }
      return outbox;
    },
  };
}
