/**
 * The SDK packed as it is published (the manifest of scripts/manifest.mjs), into `destination`; returns the
 * tarball's path. From the dist/ already built (CI builds once, before every script that packs): `npm pack
 * --ignore-scripts`, with the manifest written around it as `prepack`/`postpack` would; `{ build: true }` runs
 * `npm pack` with its scripts, which build first.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { restore, writePublished } from './manifest.mjs';
import { root } from './pins.mjs';

export function packSdk(destination, { build = false } = {}) {
  const npmPack = (...extra) =>
    execFileSync('npm', ['pack', '--silent', ...extra, '--pack-destination', destination], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  let out;
  if (build) out = npmPack();
  else {
    writePublished();
    try {
      out = npmPack('--ignore-scripts');
    } finally {
      restore();
    }
  }
  return join(destination, out.trim().split('\n').pop());
}
