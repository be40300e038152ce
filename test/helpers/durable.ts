/**
 * The kill trials of the outbox: worker processes (test/durable/worker.ts) over one database and the mock's
 * loopback server, killed (SIGKILL) at seeded points, one paused (SIGSTOP) past its claim and resumed, one
 * whose database connection is ended, while the mock cuts, stalls, refuses, answers 503 and 429 after it took
 * the payout, and lists each payout late (within the workers' `listingLagMs`); with the spec's silences filled
 * against the SDK (a range on `updated_at`, remarks listed cut short, amounts net of the fee). The mock's ledger
 * is the truth: each payout must be in it at most once, every payout must end final, and a final state must
 * agree with the ledger. The waiting is on the workers' reports, never on a clock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { PaymentsClient } from '../../src/index.js';
import {
  createPayoutOutbox,
  OPEN_STATES,
  type PayoutOutboxStore,
  type PayoutRecord,
} from '../../src/outbox/index.js';
import {
  createPaymentsMock,
  DEFAULT_API_KEY,
  type InventedBehaviour,
  type PaymentsMock,
  startMockServer,
} from '../../src/testing/index.js';
import type { PayoutLifecycle } from '../../src/testing/lifecycle.js';
import { type ChaosEvent, ChaosLog, publishJobs, refusingProxy, tiePartner } from './durable-chaos.js';
import { type TrackingTally, type TrackingTrial, trackingPhase } from './durable-tracking.js';
import { BENEFICIARY } from './fixtures.js';

const WORKER = fileURLToPath(new URL('../durable/worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The worker script bundled once with esbuild, so that a restart costs node's start-up, not a TypeScript
 * compile (seconds on a loaded machine). Written under node_modules/.cache so it resolves `pg` from the repo.
 */
async function bundleWorker(): Promise<string> {
  const dir = fileURLToPath(new URL('../../node_modules/.cache/outbox-durable/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const outfile = `${dir}worker-${process.pid}-${Date.now()}.mjs`;
  await esbuild.build({
    entryPoints: [WORKER],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['pg', 'pg-boss'],
    logLevel: 'silent',
  });
  return outfile;
}

export interface TrialOptions {
  label: string;
  store: PayoutOutboxStore<unknown>;
  /** Environment naming the database for the workers (`OUTBOX_PG` or `OUTBOX_SQLITE`). */
  workerEnv: Record<string, string>;
  processes: number;
  payouts: number;
  seed: number;
  /** Kill-and-restart rounds in all. */
  kills: number;
  /** End one worker's connection with this (PostgreSQL), when given. */
  terminateBackend?: (backendPid: number) => Promise<void>;
  /** Fails the trial after this long (a hang, not a slow machine: generous). */
  deadlineMs: number;
  /** Events on the database while the workers run (PostgreSQL): restarts, every worker connection ended. */
  chaos?: ChaosEvent[];
  /** One more worker whose database connections are refused for this many ms from its start (PostgreSQL). */
  blocked?: { port: number; ms: number };
  /** One more worker whose own clock is this far off (`OUTBOX_SKEW_MS`). */
  skewMs?: number;
  /** The workers settle payouts as pg-boss jobs (the docs' queue recipe) on this database. */
  queue?: { url: string };
  /** NGN payouts share timestamps with other rows across page boundaries, in an unstable order. */
  ties?: boolean;
  /** The tracking phase: the mock moves the payouts through their life while the workers follow them. */
  tracking?: TrackingTrial;
  /**
   * Without a tracking phase: the mock still moves each payout through its life (no worker follows it), so its
   * `updated_at` moves on past later payouts' `created_at`, which a range on `updated_at` filters by.
   */
  lifecycle?: PayoutLifecycle;
  /**
   * The workers' `listingLagMs`. The mock lists each payout after a seeded lag up to it (a fifth at exactly it):
   * a proof read any earlier could miss a payout the service took.
   */
  listingLagMs: number;
  /** What the mock invents where the spec is silent (docs/testing.md), each an assumption the SDK must not make. */
  invented?: Pick<InventedBehaviour, 'dateRangeField' | 'listedRemarkLength' | 'netOfFee'>;
  /** The clock that stamps the mock's rows runs this far ahead of its `Date` header (`rowClockOffsetMs`). */
  rowClockOffsetMs?: number;
  /**
   * Every other NGN payout carries a remark of its own, over 64 characters (the rest are recognised by their
   * reference as remark): a service that lists remarks cut short lists only their start.
   */
  longRemarks?: boolean;
}

export interface Tally {
  payouts: number;
  states: Record<string, number>;
  duplicates: number;
  /** Each payout the ledger holds twice: its ledger rows and its record's trail, the sequence that sent it again. */
  duplicated: string[];
  lost: number;
  unknownWithoutReason: number;
  /** How many payouts ended `unknown` for each reason (ids and counts left out). */
  unknownBecause: Record<string, number>;
  disagreements: string[];
  killed: Record<string, number>;
  pausedLost: boolean;
  /** The paused worker's step ended without a write (a connection closed while it slept, or an exit). */
  pausedFailed: boolean;
  terminated: boolean;
  /** Worker processes that exited without being killed by plan (a crash on a database restart, say). */
  unexpectedExits: number;
  /** NGN payouts with white space at either end of the remark, refused at enqueue (none recorded). */
  edgeRemarksRefused: number;
  chaos: ChaosLog;
  line: string;
  /** The tracking phase's tally, when it ran. */
  tracking?: TrackingTally;
}

/** A small seeded generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KILL_POINTS = ['after-claim', 'before-post', 'in-flight', 'after-post', 'during-lookup'] as const;

/**
 * The faults at seeded POSTs, by share: a cut or stalled 2xx, a 503 or 429 after the payout was taken (each
 * leaves money moved and the answer in doubt), and a 503 or 429 before it was (nothing moved, the same doubt).
 */
const POST_FAULTS: Array<[share: number, name: string, arm: (mock: PaymentsMock) => void]> = [
  [0.05, 'cut', (mock) => mock.faults.bodyFault('cut')],
  [0.03, 'stall', (mock) => mock.faults.bodyFault('stall')],
  [0.04, '503 after commit', (mock) => mock.faults.answerAfterCommit({ status: 503 })],
  [0.04, '429 after commit', (mock) => mock.faults.answerAfterCommit({ status: 429, retryAfter: 1 })],
  [0.03, '503', (mock) => mock.faults.next({ status: 503, match: 'POST /payouts' })],
  [0.03, '429', (mock) => mock.faults.next({ status: 429, retryAfter: 1, match: 'POST /payouts' })],
];

/** The fault a draw in [0, 1) falls on, by the shares in turn; none for the rest. */
function postFault(roll: number) {
  let below = 0;
  for (const fault of POST_FAULTS) {
    below += fault[0];
    if (roll < below) return fault;
  }
  return undefined;
}

/** A clock's distance in words: hours, else seconds. */
const span = (ms: number) =>
  Math.abs(ms) >= 3_600_000 ? `${Math.abs(ms) / 3_600_000} h` : `${Math.abs(ms) / 1000} s`;

/** An NGN payout's own remark, longer than a service may list: the payout's number first, so their starts differ. */
const longRemark = (i: number) =>
  `Invoice ${i} for supplier 0123456788, settlement of period 2026-11, sent by the durable kill trial`;

export async function runTrial(options: TrialOptions): Promise<Tally> {
  const random = rng(options.seed);
  const mock = createPaymentsMock({
    seed: options.seed,
    dedupeByReference: false,
    rowClockOffsetMs: options.rowClockOffsetMs ?? 0,
  });
  for (const wallet of mock.account().wallets) {
    wallet.balance = 10 ** 13;
    wallet.available_balance = 10 ** 13;
  }
  Object.assign(mock.settings.invented, options.invented, { unstableTieOrder: options.ties === true });
  if (options.lifecycle) mock.settings.lifecycle = options.lifecycle;
  const tracking =
    options.tracking &&
    trackingPhase({ trial: options.tracking, seed: options.seed, mock, store: options.store });
  // Faults at seeded POSTs, and each payout listed after a seeded lag within the workers' listingLagMs.
  const handle = mock.handle.bind(mock);
  let posts = 0;
  let lists = 0;
  const faulted: Record<string, number> = {};
  mock.handle = async (request, context) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && path.endsWith('/payouts')) {
      posts += 1;
      const fault = postFault(random());
      if (fault) {
        fault[2](mock);
        faulted[fault[1]] = (faulted[fault[1]] ?? 0) + 1;
      }
      const lag = random();
      mock.faults.listingLag(lag < 0.2 ? options.listingLagMs : Math.floor(lag * options.listingLagMs));
    } else if (request.method === 'GET' && path.endsWith('/transactions')) {
      lists += 1;
      if (lists % 23 === 0) mock.faults.pageFault('empty');
      if (lists % 29 === 0) mock.faults.pageFault('repeat');
    }
    const tie = options.ties && request.method === 'POST' && random() < 0.3;
    const response = await handle(request, context);
    if (tie) tiePartner(mock);
    return response;
  };
  const server = await startMockServer({ mock });

  // The payouts: NGN, USD and USDC in turn, enqueued as an app would.
  await options.store.migrate();
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.baseUrl, logLevel: 'off' });
  const outbox = createPayoutOutbox({
    client,
    store: options.store,
    timeout: 1500,
    visibilityWaits: [250, 500],
    listingLagMs: options.listingLagMs,
  });
  const currencies = ['NGN', 'USD', 'USDC'];
  const references: string[] = [];
  for (let i = 0; i < options.payouts; i++) {
    const currency = currencies[i % 3]!;
    const remark = options.longRemarks && i % 6 === 0 ? { remark: longRemark(i) } : {};
    const body = { amount: `${100 + i}.00`, currency, beneficiary: BENEFICIARY, ...remark };
    references.push((await outbox.enqueue(body, currency === 'USDC' ? { digits: 2 } : {})).reference);
  }

  // Remarks with white space at either end would go unrecognised by a service that trims them: refused.
  let edgeRemarksRefused = 0;
  for (let i = 0; i < 5; i++) {
    const body = {
      amount: `${100 + i}.00`,
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      remark: ` Edge ${i} `,
    };
    await outbox.enqueue(body).catch(() => {
      edgeRemarksRefused += 1;
    });
  }
  if (options.queue) await publishJobs(options.queue.url, references, () => random() < 0.1);
  const chaosLog = new ChaosLog();
  const chaos = [...(options.chaos ?? [])];
  const proxy = options.blocked ? await refusingProxy(options.blocked.port, options.blocked.ms) : undefined;
  let unexpectedExits = 0;

  const enqueuedAt = performance.now();
  const finals: number[] = [];
  const script = await bundleWorker();
  const workers = new Set<ChildProcess>();
  const killed: Record<string, number> = {};
  let killsLeft = options.kills;
  let pausePlanned = true;
  let terminatePlanned = Boolean(options.terminateBackend);
  let paused: { child: ChildProcess; reference: string; resumed?: boolean } | undefined;
  let pausedLost = false;
  let pausedFailed = false;
  let wakeAfterChaos: typeof paused;
  let terminated = false;
  let finished = false;
  let resolveDone!: () => void;
  let rejectDone!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // A trial out of time still counts its ledger: the error carries the tally line (a duplicate shows there).
  let overdue: string | undefined;
  const deadline = setTimeout(() => {
    overdue = `${options.label}: not every payout was final after ${options.deadlineMs} ms${tracking ? ` (tracking: ${tracking.waiting()})` : ''}`;
    resolveDone();
  }, options.deadlineMs);

  const open = async () => {
    let count = 0;
    for (const state of OPEN_STATES) count += (await options.store.list({ state, limit: 100_000 })).length;
    return count;
  };
  let checking = false;
  // A report that comes while a check runs is checked again after it (the check may have read the store first).
  let recheck = false;
  const checkDone = async (): Promise<void> => {
    if (checking) recheck = true;
    if (checking || finished) return;
    checking = true;
    try {
      if ((await open()) === 0 && !paused && (!tracking || (await tracking.settled(references)))) {
        finished = true;
        resolveDone();
      }
    } finally {
      checking = false;
    }
    if (recheck && !finished) {
      recheck = false;
      await checkDone();
    }
  };

  const startWorker = (extraEnv: Record<string, string> = {}, spare = false) => {
    const env: Record<string, string> = {
      ...process.env,
      ...options.workerEnv,
      ...(options.queue ? { OUTBOX_QUEUE: 'pg-boss' } : {}),
      ...extraEnv,
      OUTBOX_BASE_URL: server.baseUrl,
      OUTBOX_LISTING_LAG_MS: String(options.listingLagMs),
    } as Record<string, string>;
    // The first worker is paused, the second (PostgreSQL) cut off; every other start is killed, until none is left.
    // A spare (the blocked or the skewed one) is left alone.
    if (spare) {
      // No fault planned.
    } else if (pausePlanned) {
      pausePlanned = false;
      env.OUTBOX_PAUSE = `after-claim:${2 + Math.floor(random() * 4)}`;
    } else if (terminatePlanned) {
      terminatePlanned = false;
      env.OUTBOX_TERMINATE = `before-post:${1 + Math.floor(random() * 3)}`;
    } else if (killsLeft > 0) {
      killsLeft -= 1;
      env.OUTBOX_KILL = `${KILL_POINTS[Math.floor(random() * KILL_POINTS.length)]}:${1 + Math.floor(random() * 3)}`;
    }
    if (tracking) Object.assign(env, tracking.workerEnv(env));
    const child = spawn(process.execPath, [script], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    workers.add(child);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let event: { event: string; reference?: string; state?: string; at?: string; backend?: number };
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      if (event.event === 'killed') {
        killed[event.at!] = (killed[event.at!] ?? 0) + 1;
        planned.add(child);
      }
      tracking?.onEvent(event);
      if (tracking && (event.event === 'delivered' || event.event === 'final'))
        void checkDone().catch(rejectDone);
      if (event.event === 'paused') {
        paused = { child, reference: event.reference! };
        // Woken when another owner writes its payout (below); if none does within a few leases (every other
        // worker busy with restarts and refused connections), woken anyway: it must then stop or finish alone.
        const sleeper = paused;
        setTimeout(() => {
          if (paused === sleeper && !finished) sleeper.child.kill('SIGCONT');
        }, 30_000).unref();
      }
      if (
        event.event === 'write' &&
        paused &&
        child !== paused.child &&
        event.reference === paused.reference
      ) {
        // Another owner settled the paused worker's payout: wake it; it must find its claim gone. With chaos
        // planned, after the last of it: woken on a connection the database closed while it slept.
        if (chaos.length) wakeAfterChaos = paused;
        else paused.child.kill('SIGCONT');
      }
      if (event.event === 'resumed' && paused && child === paused.child) paused.resumed = true;
      if (event.event === 'error' && paused?.resumed && child === paused.child) {
        // Woken on a connection the database closed while it slept (a restart, a terminated backend), its step
        // failed and wrote nothing. It sent nothing it could still duplicate: a POST leaves only after a fenced
        // mark or within the claim's lease, and a row it could still send is open, which keeps the trial going.
        pausedFailed = true;
        paused = undefined;
        void checkDone().catch(() => {});
      }
      if (
        event.event === 'write' &&
        paused &&
        child === paused.child &&
        event.reference === paused.reference
      ) {
        pausedLost = event.state === 'lost';
        paused = undefined;
      }
      if (event.event === 'terminate-me' && options.terminateBackend) {
        void options.terminateBackend(event.backend!).then(() => {
          terminated = true;
          child.stdin!.write('go\n');
        }, rejectDone);
      }
      if (event.event === 'write') {
        chaosLog.wrote();
        if (event.state !== 'lost' && !OPEN_STATES.includes(event.state as never)) {
          finals.push(performance.now());
          const next = chaos[0];
          if (next && finals.length >= next.atFinals) {
            chaos.shift();
            chaosLog.ran(next.name);
            void Promise.resolve(next.run())
              .then(() => {
                if (chaos.length || !wakeAfterChaos || wakeAfterChaos !== paused) return;
                wakeAfterChaos.child.kill('SIGCONT');
              })
              .catch(rejectDone);
          }
        }
        void checkDone().catch(() => {});
      }
    });
    child.on('exit', () => {
      workers.delete(child);
      // A paused worker that exits (killed, crashed) ends its pause: it can send nothing more.
      if (paused?.child === child) {
        pausedFailed = true;
        paused = undefined;
      }
      if (!finished) {
        if (!planned.has(child)) unexpectedExits += 1;
        startWorker(extraEnv, spare);
        // The database may be restarting: the next write checks again.
        void checkDone().catch(() => {});
      }
    });
  };
  const planned = new WeakSet<ChildProcess>();
  // Events drive the checks; this poll is the floor under them: a check that failed (the database restarting)
  // after the last event, or an ending no event reports, still ends the trial.
  const poll = setInterval(() => void checkDone().catch(() => {}), 2000);
  for (let i = 0; i < options.processes; i++) startWorker();
  if (options.skewMs) startWorker({ OUTBOX_SKEW_MS: String(options.skewMs) }, true);
  if (proxy) {
    const url = new URL(options.workerEnv.OUTBOX_PG!);
    url.port = String(proxy.port);
    startWorker({ OUTBOX_PG: url.toString() }, true);
  }

  try {
    await done;
  } finally {
    finished = true;
    rmSync(script, { force: true });
    clearTimeout(deadline);
    clearInterval(poll);
    const exits = [...workers].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of workers) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
    await Promise.all(exits);
    await server.close();
    await proxy?.close();
  }

  const settledAt = performance.now();
  // The tally, against the mock's ledger.
  const ledger = mock.account().transactions.filter((t) => t.row.transaction_type === 'withdrawal');
  const states: Record<string, number> = {};
  let duplicates = 0;
  const duplicated: string[] = [];
  let lost = 0;
  let unknownWithoutReason = 0;
  const unknownBecause: Record<string, number> = {};
  const disagreements: string[] = [];
  for (const reference of references) {
    const record = (await options.store.get(reference))!;
    const key = record.remark_key === null ? null : record.body.body.remark!;
    const rows = ledger.filter((t) =>
      key ? t.row.description === key : t.row.external_reference === reference,
    );
    states[record.state] = (states[record.state] ?? 0) + 1;
    if (rows.length > 1) {
      duplicates += 1;
      const listed = rows.map(
        (t) => `${t.row.id} ${t.row.status} created ${t.row.created_at} updated ${t.row.updated_at}`,
      );
      const trail = record.attempts.map((a) =>
        `${a.at} ${a.kind} ${a.status ?? ''} ${a.detail ?? ''}`.trim(),
      );
      duplicated.push(
        `${reference} (${record.currency} ${record.body.body.amount}, ${record.state}): ledger [${listed.join('; ')}]; trail [${trail.join(' | ')}]`,
      );
    }
    if ((OPEN_STATES as readonly string[]).includes(record.state)) lost += 1;
    // Recorded sent, but not in the ledger (one there twice is a duplicate, counted above).
    if ((record.state === 'created' || record.state === 'recovered') && rows.length === 0) lost += 1;
    if (['refused', 'not_sent'].includes(record.state) && rows.length > 0) {
      disagreements.push(`${reference}: ${record.state} but in the ledger`);
    }
    if (record.state === 'unknown' && !record.reason) unknownWithoutReason += 1;
    if (record.state === 'unknown' && record.reason) {
      // The reason without its ids and counts, so that payouts left unknown for one cause count together.
      const cause = record.reason.replace(/\([^()]*\)\s*$/, '').replace(/[0-9a-f-]{36}|payout_\w+|\d+/g, '#');
      unknownBecause[cause] = (unknownBecause[cause] ?? 0) + 1;
    }
  }
  const count = (s: string) => states[s] ?? 0;
  const invented = options.invented ?? {};
  const extras = [
    Object.keys(unknownBecause).length ? `unknown because ${JSON.stringify(unknownBecause)}` : '',
    `POST faults ${JSON.stringify(faulted)}`,
    `listed after up to ${options.listingLagMs} ms (listingLagMs ${options.listingLagMs})`,
    invented.dateRangeField ? `date range on ${invented.dateRangeField}` : '',
    invented.listedRemarkLength ? `remarks listed to ${invented.listedRemarkLength} characters` : '',
    options.longRemarks
      ? `${Math.ceil(options.payouts / 6)} NGN remarks of ${longRemark(0).length}+ characters`
      : '',
    invented.netOfFee ? 'amounts net of the fee' : '',
    options.lifecycle ? 'payouts completed, failed and refunded while no worker follows them' : '',
    options.rowClockOffsetMs
      ? `rows stamped ${span(options.rowClockOffsetMs)} ${options.rowClockOffsetMs > 0 ? 'ahead of' : 'behind'} Date`
      : '',
    options.ties ? 'NGN rows sharing timestamps across page boundaries' : '',
    options.skewMs ? `one worker's clock ${options.skewMs / 3_600_000} h off` : '',
    proxy
      ? `one worker refused by its database for ${options.blocked!.ms / 1000} s (${proxy.refused()} connections refused)`
      : '',
    options.queue ? 'settled as pg-boss jobs' : '',
    `${edgeRemarksRefused} of 5 remarks with edge white space refused at enqueue`,
    `unexpected worker exits ${unexpectedExits}`,
    chaosLog.count ? chaosLog.line() : '',
  ].filter(Boolean);
  const line =
    `durable (${options.label}): ${references.length} payouts, created ${count('created')}, ` +
    `recovered ${count('recovered')}, refused ${count('refused')}, not sent ${count('not_sent')}, ` +
    `unknown ${count('unknown')}, duplicates ${duplicates}, lost ${lost}; ` +
    `${options.processes} processes, ${posts} POSTs, killed ${JSON.stringify(killed)}, ` +
    `paused worker stopped: ${pausedLost}${pausedFailed ? ' (its step ended without a write: a closed connection, or an exit)' : ''}, connection terminated: ${terminated}, settled in ${Math.round((settledAt - enqueuedAt) / 1000)} s (half by ${Math.round(((finals[Math.floor(finals.length / 2)] ?? 0) - enqueuedAt) / 1000)} s, 90 % by ${Math.round(((finals[Math.floor(finals.length * 0.9)] ?? 0) - enqueuedAt) / 1000)} s); ${extras.join('; ')}`;
  const trackingTally = tracking && (await tracking.tally(references, killed['in-hook'] ?? 0));
  if (overdue) {
    const sent = duplicated.length ? `\nsent twice:\n${duplicated.join('\n')}` : '';
    throw new Error(`${overdue}\n${line}${trackingTally ? `; ${trackingTally.line}` : ''}${sent}`);
  }
  return {
    ...(trackingTally ? { tracking: trackingTally } : {}),
    payouts: references.length,
    states,
    duplicates,
    duplicated,
    lost,
    unknownWithoutReason,
    unknownBecause,
    disagreements,
    killed,
    pausedLost,
    pausedFailed,
    terminated,
    unexpectedExits,
    edgeRemarksRefused,
    chaos: chaosLog,
    line: trackingTally ? `${line}; ${trackingTally.line}` : line,
  };
}

export type { PayoutRecord };
