#!/usr/bin/env node
/**
 * The package as npm would publish it, checked from its tarball (not from this folder): the published
 * package.json carries nothing of our development (scripts, workspaces, dev dependencies), names the repository,
 * homepage and issue tracker, and names no file the tarball lacks; the README is at most 300 lines and starts a
 * newcomer from `npm install` and the mock; every relative link of the shipped markdown (README, docs/, ...) resolves to a file in the
 * tarball, and its #anchor to a heading there; publint --strict and are-the-types-wrong (node16 profile) find
 * nothing.
 *
 *   node scripts/check-package.mjs              npm pack (its prepack builds), then check
 *   node scripts/check-package.mjs --no-build   pack the dist/ already built (CI builds just before)
 *
 * Ends with "package: N passed, M failed".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { packSdk } from './pack.mjs';
import { root } from './pins.mjs';

const work = mkdtempSync(join(tmpdir(), 'sdk-check-package-'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const results = [];

function check(name, fn) {
  try {
    const detail = fn();
    results.push(true);
    console.log(`ok   ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push(false);
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`.trimEnd());
  }
}

/** Every file path a manifest names: main, module, types, bin, and the targets of exports, imports and typesVersions. */
function namedPaths(manifest) {
  const found = new Set();
  const walk = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./') && !value.includes('*')) found.add(value.slice(2));
    } else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const key of ['main', 'module', 'types', 'typings']) {
    if (manifest[key]) found.add(manifest[key].replace(/^\.\//, ''));
  }
  walk(manifest.exports);
  walk(manifest.imports);
  walk(manifest.typesVersions);
  walk(typeof manifest.bin === 'string' ? `./${manifest.bin.replace(/^\.\//, '')}` : manifest.bin);
  return [...found].sort();
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors a markdown file offers: its headings' slugs (a repeated one gets -1, -2, ...). */
function anchors(text) {
  const seen = new Map();
  const found = new Set();
  for (const [, heading] of unfenced(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n ? `${base}-${n}` : base);
  }
  return found;
}

/** Markdown without its fenced code blocks, where a `#` line or a `](...)` is code. */
const unfenced = (text) => text.replace(/^(\s*)(```|~~~)[^\n]*\n[\s\S]*?^\1\2\s*$/gm, '');
/** ...and without code spans, for links. */
const prose = (text) => unfenced(text).replace(/`[^`\n]*`/g, '');

/** The relative links of a markdown file: inline, reference definitions, and HTML href/src. */
function relativeLinks(text) {
  const body = prose(text);
  const targets = [
    ...[...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]),
    ...[...body.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]),
  ];
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

try {
  const tarball = packSdk(work, { build: !process.argv.includes('--no-build') });
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
  const files = new Set(
    execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, '')),
  );
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));

  check('the published package.json carries no scripts, workspaces or dev dependencies', () => {
    const dev = ['scripts', 'workspaces', 'devDependencies'].filter((key) => key in manifest);
    if (dev.length) throw new Error(`the packed package.json has ${dev.join(', ')}`);
    return Object.keys(manifest).join(', ');
  });
  check('the published package.json names the repository, its homepage and its issue tracker', () => {
    const url = (value) => (typeof value === 'string' ? value : value?.url);
    const named = {
      repository: url(manifest.repository),
      homepage: manifest.homepage,
      bugs: url(manifest.bugs),
    };
    const missing = Object.entries(named).filter(([, value]) => !/^(git\+)?https:\/\//.test(value ?? ''));
    if (missing.length) throw new Error(`no URL for ${missing.map(([key]) => key).join(', ')}`);
    return Object.values(named).join(', ');
  });
  // A newcomer meets the package through npm: the README's first screen goes from `npm install` to the mock's
  // two lines, and nothing asks for a clone.
  check('the README is at most 300 lines, and its first screen starts from npm install and the mock', () => {
    const readme = readFileSync(join(unpacked, 'package', 'README.md'), 'utf8');
    const lines = readme.split('\n').length - 1;
    if (lines > 300) throw new Error(`README.md is ${lines} lines: move detail to docs/`);
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    const needed = ['npm install payments-service-sdk', 'npx payments-service-sdk mock'];
    const absent = needed.filter((text) => !firstScreen.includes(text));
    if (absent.length) throw new Error(`the README's first 40 lines lack ${absent.join(' and ')}`);
    if (/git clone/.test(readme)) throw new Error('the README asks for a git clone');
    return `${lines} lines`;
  });
  check('every file the published package.json names is in the tarball', () => {
    const named = namedPaths(manifest);
    const missing = named.filter((path) => !files.has(path));
    if (missing.length) throw new Error(`named but not shipped: ${missing.join(', ')}`);
    return `${named.length} paths`;
  });
  check('every relative link in the shipped markdown resolves inside the tarball', () => {
    const markdown = [...files].filter((f) => f.endsWith('.md'));
    const text = (f) => readFileSync(join(unpacked, 'package', f), 'utf8');
    const broken = [];
    let count = 0;
    for (const file of markdown) {
      for (const link of relativeLinks(text(file))) {
        count++;
        const [path, anchor] = link.split('#');
        const target = path ? posix.normalize(posix.join(posix.dirname(file), decodeURI(path))) : file;
        const isDir = [...files].some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`));
        if (!files.has(target) && !isDir) broken.push(`${file}: ${link} (not in the package)`);
        else if (anchor && target.endsWith('.md') && !anchors(text(target)).has(anchor)) {
          broken.push(`${file}: ${link} (no heading #${anchor} in ${target})`);
        }
      }
    }
    if (broken.length) {
      throw new Error(
        `${broken.join('\n')}\nlink what ships, or write the repository's URL (${manifest.homepage ?? 'homepage'})`,
      );
    }
    return `${count} links in ${markdown.length} files`;
  });
  check('publint --strict on the tarball', () => {
    const out = execFileSync(bin('publint'), ['--strict', tarball], { encoding: 'utf8', stdio: 'pipe' });
    return out.trim().split('\n').at(-1);
  });
  check('are-the-types-wrong (node16 profile) on the tarball', () => {
    execFileSync(bin('attw'), [tarball, '--profile', 'node16', '--format', 'table-flipped'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return 'no problems';
  });
} catch (error) {
  results.push(false);
  console.log(`FAIL packing: ${error.stderr ?? ''}${error.message}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((ok) => !ok).length;
console.log(`package: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
