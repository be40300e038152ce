// Paired A/B of builds of the outbox at 16 workers on a SQLite file (STORE=postgres: a throwaway PostgreSQL
// server, one pool of 18 connections), each run beside raw payouts.create with 16 callers through the same build,
// the builds alternating, so a ratio is taken under one load:
//   node bench/ab-outbox.mjs <build dir> <build dir> [...]      (ROUNDS=6 by default)
// A build is a directory holding a copy of dist/ inside the worktree (see bench/ab.mjs). The loopback mock is
// bench/outbox-server.mjs in a child process. Prints each run and the median ratio per build; figures only.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres.ts';
import { here, median } from './common.mjs';
import { payout } from './outbox.mjs';

const builds = process.argv.slice(2);
if (builds.length < 2) throw new Error('usage: bench/ab-outbox.mjs <build dir> <build dir> [...]');
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const PAYOUTS = 400;
const WORKERS = 16;
const child = fork(here('./outbox-server.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const baseUrl = await new Promise((done) => child.once('message', (message) => done(message.baseUrl)));
const load = (dir, file) => import(pathToFileURL(resolve(dir, file)).href);
const sides = [];
for (const dir of builds) {
  const [{ PaymentsClient }, outbox, { DEFAULT_API_KEY }] = await Promise.all(
    ['index.js', 'outbox.js', 'testing.js'].map((file) => load(dir, file)),
  );
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl, logLevel: 'off' });
  sides.push({ dir, client, outbox, ratios: [] });
}

let seq = 0;
const perSecond = async (run) => {
  const t0 = performance.now();
  await run();
  return PAYOUTS / ((performance.now() - t0) / 1000);
};
const raw = ({ client }) =>
  perSecond(async () => {
    let next = 0;
    seq += PAYOUTS;
    const base = seq;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        for (let i = next++; i < PAYOUTS; i = next++) {
          await client.payouts.create({ ...payout(i), externalReference: `ab-raw-${base + i}` });
        }
      }),
    );
  });
const dir = mkdtempSync(join(tmpdir(), 'ab-outbox-'));
const postgres = process.env.STORE === 'postgres' ? await startPostgres() : undefined;
/** A fresh store per run: a SQLite file, or a table of its own on one pool. */
const openStore = (outbox) => {
  if (!postgres) {
    const database = new DatabaseSync(join(dir, `outbox-${seq++}.db`));
    return { store: outbox.sqliteOutboxStore({ database }), close: () => database.close() };
  }
  const pool = new pg.Pool({ connectionString: postgres.url, max: WORKERS + 2 });
  const store = outbox.postgresOutboxStore({ client: pool, table: `ab_${seq++}` });
  return { store, close: () => pool.end() };
};
const settled = async ({ client, outbox }) => {
  const { store, close } = openStore(outbox);
  await store.migrate();
  const options = { client, store, visibilityWaits: [200], tracking: false };
  const recorder = outbox.createPayoutOutbox(options);
  for (let i = 0; i < PAYOUTS; i++) await recorder.enqueue(payout(i));
  const workers = Array.from({ length: WORKERS }, (_, i) =>
    outbox.createPayoutOutbox({
      ...options,
      owner: `ab-${i}`,
      timeout: 10_000,
      backoff: { baseMs: 100, maxMs: 1000 },
    }),
  );
  const rate = await perSecond(() =>
    Promise.all(
      workers.map((w) => w.work({ concurrency: 1, until: 'drained', drainWithinMs: 0, pollMs: 10 })),
    ),
  );
  await close();
  return rate;
};

try {
  for (const side of sides) await raw(side); // warm-up
  console.log(
    `node ${process.version}; ${ROUNDS} rounds of ${PAYOUTS} payouts, ${WORKERS} workers, builds alternating`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const r = await raw(side);
      const o = await settled(side);
      side.ratios.push(o / r);
      console.log(`  ${side.dir}: raw ${r.toFixed(0)}/s, outbox ${o.toFixed(0)}/s, ${(o / r).toFixed(2)}x`);
    }
  }
  for (const side of sides) console.log(`${side.dir}: median ${median(side.ratios).toFixed(2)}x`);
} finally {
  child.kill();
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
