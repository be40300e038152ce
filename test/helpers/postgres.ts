/**
 * A throwaway PostgreSQL server for tests: Debian's server package (`/usr/lib/postgresql/<v>/bin`, or
 * `PG_BINDIR`), a cluster in a temporary directory owned by an unprivileged user (PostgreSQL refuses root:
 * as root, the server runs as `nobody`), listening on a free loopback port. `stop()` ends it with an immediate
 * shutdown and removes the directory; a process exit stops it too, so a failed test leaves no server behind.
 *
 * Without the server package the tests fail when `CI=true` or `REQUIRE_POSTGRES=1` (.ci/run installs it and
 * sets the latter) and are skipped, with a notice, elsewhere.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  stop(): void;
}

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

/** Starts a fresh cluster; resolves once it accepts connections. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found');
  const dir = mkdtempSync(join(tmpdir(), 'sdk-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const nobody = asRoot ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()) : 0;
  const nogroup = asRoot ? Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim()) : 0;
  if (asRoot) chownSync(dir, nobody, nogroup);
  // As root, each command runs as nobody; otherwise as this user.
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
  const port = await freePort();
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', stop);
  };
  process.on('exit', stop);
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    writeFileSync(
      join(data, 'postgresql.auto.conf'),
      [
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'max_connections = 200',
      ].join('\n'),
    );
    if (asRoot) chownSync(join(data, 'postgresql.auto.conf'), nobody, nogroup);
    run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    started = true;
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
}
