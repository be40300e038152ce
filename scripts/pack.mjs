/**
 * The SDK packed as it is published, from the dist/ already built (CI builds once, before every script that
 * packs): `npm pack --ignore-scripts`, as `prepack` would only build again. Returns the tarball's path.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './pins.mjs';

export function packSdk(destination) {
  const out = execFileSync(
    'npm',
    ['pack', '--silent', '--ignore-scripts', '--pack-destination', destination],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return join(destination, out.trim().split('\n').pop());
}
