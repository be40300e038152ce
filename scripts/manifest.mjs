#!/usr/bin/env node
/**
 * The package.json a user installs is not the one we develop with: `npm pack` ships package.json as it is on
 * disk, dev scripts, `workspaces` and the `#compiler` import's `types` path into src/ (which does not ship)
 * included. So `prepack` writes the published manifest in its place and `postpack` puts ours back. The
 * examples ship runnable too: `prepack` compiles each to `.js` beside it (scripts/build-examples.mjs), and
 * `postpack` removes them.
 *
 *   node scripts/manifest.mjs prepack    keep package.json in .package.dev.json, write the published one
 *   node scripts/manifest.mjs postpack   put package.json back from .package.dev.json
 *   node scripts/manifest.mjs publish    refuse a publish from this folder (prepublishOnly)
 *
 * npm publish from a folder reads the manifest again after `postpack` and would send the registry ours, so a
 * release publishes the tarball: `npm pack && npm publish payments-service-sdk-<version>.tgz`.
 * A pack cut short leaves .package.dev.json behind; the next `prepack` (or `postpack`) restores it first.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compileExamples, removeCompiledExamples } from './build-examples.mjs';

const root = resolve(import.meta.dirname, '..');
const manifestPath = join(root, 'package.json');
export const BACKUP = join(root, '.package.dev.json');

/** What of the development manifest only this repository uses. */
const DEV_ONLY = ['scripts', 'workspaces', 'devDependencies'];

/** The manifest as published: no dev-only fields, and no `types` condition pointing into src/. */
export function publishedManifest(manifest) {
  const published = Object.fromEntries(Object.entries(manifest).filter(([key]) => !DEV_ONLY.includes(key)));
  if (published.imports) {
    published.imports = Object.fromEntries(
      Object.entries(published.imports).map(([key, target]) => {
        if (typeof target !== 'object' || target === null) return [key, target];
        // The repository's typecheck reads src/ through `types`; users' compilers find dist/'s .d.ts beside
        // the .js each other condition names.
        const { types: _sourceTypes, ...rest } = target;
        return [key, rest];
      }),
    );
  }
  return published;
}

export function restore() {
  if (existsSync(BACKUP)) renameSync(BACKUP, manifestPath);
  removeCompiledExamples(root);
}

export function writePublished() {
  restore();
  const text = readFileSync(manifestPath, 'utf8');
  writeFileSync(BACKUP, text);
  writeFileSync(manifestPath, `${JSON.stringify(publishedManifest(JSON.parse(text)), null, 2)}\n`);
  compileExamples(root);
}

if (import.meta.filename === process.argv[1]) {
  const command = process.argv[2];
  if (command === 'prepack') writePublished();
  else if (command === 'postpack') restore();
  else if (command === 'publish') {
    const { name, version } = JSON.parse(readFileSync(manifestPath, 'utf8'));
    console.error(
      `${name}: publish the packed tarball, not this folder (npm would send the registry the development manifest):\n  npm pack && npm publish ${name}-${version}.tgz`,
    );
    process.exit(1);
  } else {
    console.error('usage: node scripts/manifest.mjs prepack|postpack|publish');
    process.exit(2);
  }
}
