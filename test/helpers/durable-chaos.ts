/**
 * The kill trials' parts that are not about killing workers: a proxy that refuses a worker's database connections
 * for a while, the chaos schedule on the database (restarts, every worker connection ended), the pg-boss queue the
 * queue recipe runs on, and the mock's faults on the listing (rows sharing timestamps across page boundaries).
 */
import { createServer, type Socket, connect as tcp } from 'node:net';
import type { PaymentsMock } from '../../src/testing/index.js';

/**
 * A TCP proxy to `targetPort` that ends every connection opened in its first `refuseMs`: a worker behind it
 * cannot reach its database for that long, then can. Resolves with its port.
 */
export async function refusingProxy(targetPort: number, refuseMs: number) {
  const until = Date.now() + refuseMs;
  let refused = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (Date.now() < until) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = tcp(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An event on the database while the workers run, at the n-th final write. */
export interface ChaosEvent {
  name: string;
  atFinals: number;
  run: () => Promise<void> | void;
}

/** What happened after each event: when it ran, and how long until the next final write (the outbox went on). */
export class ChaosLog {
  readonly #events: Array<{ name: string; at: number; recoveredAt?: number }> = [];
  ran(name: string): void {
    this.#events.push({ name, at: performance.now() });
  }
  wrote(): void {
    const now = performance.now();
    for (const event of this.#events) event.recoveredAt ??= now;
  }
  get count(): number {
    return this.#events.length;
  }
  /** `restart-fast: settled on 0.4 s after`, one per event. */
  line(): string {
    return this.#events
      .map(
        (e) =>
          `${e.name}: writes again ${e.recoveredAt === undefined ? 'never' : `${((e.recoveredAt - e.at) / 1000).toFixed(1)} s`} after`,
      )
      .join(', ');
  }
}

/** The queue the pg-boss workers take payout jobs from, and a job for each reference but a few (the gap). */
export async function publishJobs(
  url: string,
  references: string[],
  skip: (i: number) => boolean,
): Promise<number> {
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: url, max: 2 });
  boss.on('error', () => {});
  await boss.start();
  // Stately: one job per reference waiting and one running at most, so the sweeper's extra sends merge.
  await boss.createQueue('payout', {
    policy: 'stately',
    expireInSeconds: 5,
    retryLimit: 1000,
    retryDelay: 1,
  });
  let unpublished = 0;
  for (const [i, reference] of references.entries()) {
    if (skip(i)) unpublished += 1;
    else await boss.send('payout', { reference }, { singletonKey: reference });
  }
  await boss.stop({ graceful: true });
  return unpublished;
}

/**
 * Rows sharing timestamps across page boundaries: after a payout is stored, one more withdrawal with the same
 * `created_at`, listed in an order that changes from request to request (`unstableTieOrder`). Its description is
 * its own: the mock's default, `Payout`, is a prefix of every remark the outbox makes from a reference
 * (`payout_…`), and a row whose remark may be ours cut short is a doubt, so every such NGN payout in doubt would end
 * `unknown` (see the report of the trials that turned remark truncation on).
 */
export function tiePartner(mock: PaymentsMock): void {
  const newest = mock.account().transactions[0]?.row;
  if (!newest) return;
  ties += 1;
  mock.transactions.add({
    created_at: newest.created_at,
    source_currency: newest.source_currency,
    description: `Ledger tie ${ties}`,
  });
}
let ties = 0;
