#!/usr/bin/env node
/**
 * The OpenTelemetry recipes of docs/observability.md, as a merchant follows them: each ` ```ts recipe ` block
 * with the ` ```sh ` install line above it. The install line must name exactly the packages of a pin
 * (scripts/pins/otel-*), in the ranges the pin tracks, so what CI installs is what the docs tell you to; the
 * project is then installed from the pin's lock with the packed SDK, the recipe type-checked (strict) and run
 * with Node against the mock, its spans printed by the console exporter. It passes when `checkout`,
 * `banks.list` and `GET /banks` are one trace.
 *
 *   npm run build && node scripts/otel-recipes.mjs
 *
 * Ends with "otel: N passed, M failed".
 */
import './npm-env.mjs';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { packSdk } from './pack.mjs';
import { CI_ARGS, inRange, PINS, pinnedVersion, preparePinned, root } from './pins.mjs';

const DOC = 'docs/observability.md';
const work = mkdtempSync(join(tmpdir(), 'sdk-otel-recipes-'));
const results = [];

async function check(name, fn) {
  try {
    const detail = await fn();
    results.push(true);
    console.log(`ok   ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push(false);
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`.trimEnd());
  }
}

/** Each recipe block of the page with the `npm install` line of the nearest sh block above it. */
function recipes() {
  const blocks = [
    ...readFileSync(join(root, DOC), 'utf8').matchAll(/^```(\w+)(?: (\w+))?\n([\s\S]*?)^```$/gm),
  ].map((m) => ({ lang: m[1], mark: m[2], code: m[3], line: m.input.slice(0, m.index).split('\n').length }));
  return blocks.flatMap((b, i) => {
    if (b.lang !== 'ts' || b.mark !== 'recipe') return [];
    const sh = blocks.slice(0, i).findLast((x) => x.lang === 'sh');
    const install = sh?.code.split('\n').find((l) => l.startsWith('npm install '));
    return [{ ...b, install }];
  });
}

/** The pin whose packages are the ones an install line names (besides the SDK), checked against its ranges. */
function pinOf(install) {
  const named = Object.fromEntries(
    install
      .replace(/^npm install /, '')
      .trim()
      .split(/\s+/)
      .filter((spec) => spec !== 'payments-service-sdk')
      .map((spec) => {
        const at = spec.lastIndexOf('@');
        return at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, '*'];
      }),
  );
  const same = (deps) =>
    JSON.stringify(Object.keys(deps).sort()) === JSON.stringify(Object.keys(named).sort());
  const pin = Object.keys(PINS).find((p) => p.startsWith('otel-') && same(PINS[p].dependencies ?? {}));
  if (!pin) throw new Error(`no otel pin installs ${Object.keys(named).join(', ')} (scripts/pins.mjs)`);
  const differ = Object.entries(named).filter(([pkg, range]) => PINS[pin].dependencies[pkg] !== range);
  if (differ.length) {
    throw new Error(`${pin} tracks other ranges: ${differ.map(([p, r]) => `${p}@${r}`).join(', ')}`);
  }
  const outside = Object.entries(named).filter(([pkg, range]) => !inRange(pinnedVersion(pin, pkg), range));
  if (outside.length)
    throw new Error(`${pin}'s ${outside.map(([p]) => p).join(', ')} outside the docs' ranges`);
  return pin;
}

/** Strict type errors of `file`, resolved from its project's node_modules (and @types/node from ours). */
function typeErrors(file) {
  const options = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    skipLibCheck: true,
  };
  const program = ts.createProgram([file], options);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .join('\n');
}

/** Runs `file` with this Node; resolves with its exit code and output. */
function runNode(file, env) {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--no-warnings', file], { cwd: join(file, '..'), env });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
  });
}

let server;
try {
  const tarball = packSdk(work);
  const { startMockServer, DEFAULT_API_KEY } = await import(join(root, 'dist/testing.js'));
  server = await startMockServer({ seed: 1 });
  const found = recipes();
  if (found.length < 2) throw new Error(`${DOC}: ${found.length} recipe blocks, expected one per SDK line`);
  for (const recipe of found) {
    const where = `${DOC}:${recipe.line}`;
    let app;
    await check(`${where}: its install line is a pin's, and installs from its lock`, () => {
      if (!recipe.install) throw new Error('no `npm install` line in a sh block above it');
      const pin = pinOf(recipe.install);
      app = preparePinned(pin, join(work, pin), { 'payments-service-sdk': tarball });
      execFileSync('npm', CI_ARGS, { cwd: app, stdio: 'pipe' });
      const versions = Object.keys(PINS[pin].dependencies).map((p) => `${p} ${pinnedVersion(pin, p)}`);
      return `${pin}: ${versions.join(', ')}`;
    });
    if (!app) continue;
    const file = join(app, 'recipe.ts');
    writeFileSync(file, recipe.code);
    await check(`${where}: compiles (strict)`, () => {
      const errors = typeErrors(file);
      if (errors) throw new Error(errors);
    });
    await check(`${where}: runs; checkout > banks.list > GET /banks are one trace`, async () => {
      const env = {
        ...process.env,
        PAYMENTS_BASE_URL: server.baseUrl,
        PAYMENTS_API_KEY: DEFAULT_API_KEY,
        // sdk-node's exporters come from the environment: spans to the console, no OTLP endpoint to reach.
        OTEL_TRACES_EXPORTER: 'console',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
      };
      const { code, out } = await runNode(file, env);
      if (code !== 0) throw new Error(`exit ${code}:\n${out.split('\n').slice(-20).join('\n')}`);
      // The console exporter prints each span as an object: its own `traceId:` and `name:` lines (two spaces
      // in; the instrumentation scope's name and the parent's traceId are nested deeper).
      const names = [...out.matchAll(/^ {2}name: '([^']+)',?$/gm)].map((m) => m[1]);
      const traces = new Set([...out.matchAll(/^ {2}traceId: '([0-9a-f]+)',?$/gm)].map((m) => m[1]));
      const wanted = ['GET /banks', 'banks.list', 'checkout'];
      if (wanted.some((n) => !names.includes(n)) || traces.size !== 1) {
        throw new Error(`spans ${names.join(', ')} in ${traces.size} traces:\n${out.slice(0, 3000)}`);
      }
      return `${names.join(', ')} in one trace`;
    });
  }
} catch (error) {
  results.push(false);
  console.log(`FAIL ${error.stderr ?? ''}${error.message}`);
} finally {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((ok) => !ok).length;
console.log(`otel: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
