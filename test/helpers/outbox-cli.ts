/**
 * `payments-outbox` as an operator runs it: a real process. The bin is bundled once per test file with esbuild
 * (as the durable trials bundle their worker), so a run costs node's start-up, not a TypeScript compile.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const BIN = fileURLToPath(new URL('../../src/outbox/bin.ts', import.meta.url));
/** `#compiler` as the source resolves it under node (the package's import map points into dist/). */
const COMPILER = fileURLToPath(new URL('../../src/rules/compiler.ts', import.meta.url));

/** Bundles the bin under node_modules/.cache (so it resolves `pg` from the repository); its path. */
export async function bundleOutboxCli(): Promise<string> {
  const dir = fileURLToPath(new URL('../../node_modules/.cache/outbox-cli/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const outfile = `${dir}cli-${process.pid}-${Date.now()}.mjs`;
  await esbuild.build({
    entryPoints: [BIN],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['pg'],
    logLevel: 'silent',
    plugins: [
      {
        name: 'compiler',
        setup: (build) => build.onResolve({ filter: /^#compiler$/ }, () => ({ path: COMPILER })),
      },
    ],
  });
  return outfile;
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output until it exits. */
function collect(child: ChildProcess): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs the command to its end, with `env` (and nothing else of this process's), `stdin` written to it. */
export function runCli(
  bundle: string,
  env: Record<string, string>,
  args: string[],
  stdin = '',
): Promise<CliRun> {
  const child = spawn(process.execPath, [bundle, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = collect(child);
  child.stdin!.end(stdin);
  return done;
}

/** Starts the command, and resolves once its stderr has shown `ready`: the child, and its run when it ends. */
export async function startCli(
  bundle: string,
  env: Record<string, string>,
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; done: Promise<CliRun> }> {
  const child = spawn(process.execPath, [bundle, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = collect(child);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const look = (chunk: unknown) => {
      seen += String(chunk);
      if (ready.test(seen)) {
        child.stderr!.off('data', look);
        resolve();
      }
    };
    child.stderr!.on('data', look);
    void done.then((run) => reject(new Error(`exited before it was ready: ${run.code} ${run.stderr}`)));
  });
  return { child, done };
}
