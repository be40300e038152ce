/**
 * A throwaway PostgreSQL server for tests: Debian's server package (`/usr/lib/postgresql/<v>/bin`, or
 * `PG_BINDIR`), a cluster in a temporary directory owned by an unprivileged user (PostgreSQL refuses root:
 * as root, the server runs as `nobody`), listening on a free loopback port. `stop()` ends it with an immediate
 * shutdown and removes the directory; a process exit stops it too, so a failed test leaves no server behind.
 *
 * Without the server package the tests fail when `CI=true` or `REQUIRE_POSTGRES=1` (.ci/run installs it and
 * sets the latter) and are skipped, with a notice, elsewhere.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory holding `initdb`, `pg_ctl` and `postgres`, or undefined. */
export function postgresBinDir(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  const onPath = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (onPath.status === 0) candidates.push(onPath.stdout.trim());
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** Whether the PostgreSQL tests run here; throws under CI when the server package is missing. */
export function postgresAvailable(): boolean {
  if (postgresBinDir()) return true;
  const message =
    'PostgreSQL server binaries not found (apt-get install -y postgresql, or set PG_BINDIR): the PostgreSQL tests cannot run';
  const required = ['true', '1'].includes(process.env.CI ?? '') || process.env.REQUIRE_POSTGRES === '1';
  if (required) throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Runs the server's tools in `dir` (as `nobody` when this process is root, which PostgreSQL refuses). */
function tools(dir: string) {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found');
  const asRoot = process.getuid?.() === 0;
  const nobody = asRoot ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()) : 0;
  const nogroup = asRoot ? Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim()) : 0;
  const own = (path: string) => {
    if (asRoot) chownSync(path, nobody, nogroup);
  };
  own(dir);
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? [
          'setpriv',
          [`--reuid=${nobody}`, `--regid=${nogroup}`, '--clear-groups', join(bin, command), ...args],
        ]
      : [join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) {
      throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
    }
  };
  /** As `run`, without blocking this process (its other servers go on answering meanwhile). */
  const runAsync = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [file, argv] = asRoot
        ? [
            'setpriv',
            [`--reuid=${nobody}`, `--regid=${nogroup}`, '--clear-groups', join(bin, command), ...args],
          ]
        : [join(bin, command), args];
      execFile(file, argv, { cwd: dir }, (error, _stdout, stderr) =>
        error ? reject(new Error(`${command} failed: ${stderr || error.message}`)) : resolve(),
      );
    });
  return { run, runAsync, own };
}

/** A running server of the cluster in `data`, on `port`; `stop` ends it. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** `pg_ctl restart` (`fast`: connections closed cleanly; `immediate`: as a crash), without blocking. */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server (`immediate`: as a crash) and keeps its files. */
  halt(mode?: 'fast' | 'immediate'): void;
  /** Starts it again after `halt`. */
  start(): void;
  /** `pg_ctl promote` (a standby becomes a primary). */
  promote(): void;
  /** Ends it and removes its files. */
  stop(): void;
}

const CONFIG = (dir: string, extra: string[]) =>
  [
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'fsync = off',
    'full_page_writes = off',
    'max_connections = 200',
    ...extra,
  ].join('\n');

/** A server on the cluster in `data` (made by `init`), started; removed with `dir` on `stop` or exit. */
async function serve(dir: string, data: string, init: () => void): Promise<TestPostgres> {
  const { run, runAsync } = tools(dir);
  let port = 0;
  let running = false;
  const ctl = (...args: string[]) => run('pg_ctl', ['-D', data, ...args]);
  const halt = (mode: 'fast' | 'immediate' = 'immediate') => {
    if (!running) return;
    running = false;
    try {
      ctl('-m', mode, '-w', 'stop');
    } catch {
      // Already gone.
    }
  };
  const start = () => {
    ctl('-l', join(dir, 'server.log'), '-w', '-t', '60', 'start');
    running = true;
  };
  const stop = () => {
    halt();
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', stop);
  };
  process.on('exit', stop);
  try {
    init();
    // The port is picked right before the server binds it: `initdb` takes seconds, in which a port picked
    // earlier may be taken by another test's `listen(0)`. One taken even so: once more, on another.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      appendFileSync(join(data, 'postgresql.auto.conf'), `\nport = ${port}\n`);
      try {
        start();
        break;
      } catch (error) {
        if (attempt === 2) throw error;
      }
    }
  } catch (error) {
    stop();
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: (mode) =>
      runAsync('pg_ctl', [
        '-D',
        data,
        '-m',
        mode,
        '-l',
        join(dir, 'server.log'),
        '-w',
        '-t',
        '60',
        'restart',
      ]),
    halt,
    start,
    promote: () => ctl('-w', 'promote'),
    stop,
  };
}

/**
 * Starts a fresh cluster; resolves once it accepts connections. `replicas`: it may stream to standbys
 * (`startStandby`).
 */
export async function startPostgres(options: { replicas?: boolean } = {}): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-pg-'));
  const data = join(dir, 'data');
  const { run, own } = tools(dir);
  return serve(dir, data, () => {
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    // fsync off (a test's speed: only an OS crash would lose writes); synchronous_commit stays on, as the outbox
    // requires (a restart of the server must not lose an acknowledged commit).
    const extra = options.replicas ? ['wal_level = replica', 'max_wal_senders = 5', 'hot_standby = on'] : [];
    writeFileSync(join(data, 'postgresql.auto.conf'), CONFIG(dir, extra));
    own(join(data, 'postgresql.auto.conf'));
  });
}

/**
 * A standby of `primary` (started with `replicas`), streaming asynchronously, as streaming replication does by
 * default: made by `pg_basebackup -R`, on a port of its own.
 */
export async function startStandby(primary: TestPostgres): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-pg-standby-'));
  const data = join(dir, 'data');
  const { run, own } = tools(dir);
  return serve(dir, data, () => {
    run('pg_basebackup', [
      '-D',
      data,
      '-R',
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-X',
      'stream',
    ]);
    const auto = join(data, 'postgresql.auto.conf');
    const conninfo = `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=standby'`;
    writeFileSync(auto, CONFIG(dir, ['hot_standby = on', conninfo]));
    own(auto);
  });
}
