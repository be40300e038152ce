import { VERSION } from '../version.js';

interface RuntimeGlobals {
  Bun?: { version: string };
  Deno?: { version: { deno: string } };
  process?: { versions?: { node?: string }; platform?: string; arch?: string };
}

/** `node 20.20.2; linux x64`, `bun 1.2.0; ...`, `deno 2.1.0; ...`. */
function describeRuntime(): string {
  const g = globalThis as RuntimeGlobals;
  const where = g.process?.platform ? `; ${g.process.platform} ${g.process.arch ?? ''}`.trimEnd() : '';
  if (g.Bun) return `bun ${g.Bun.version}${where}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}${where}`;
  if (g.process?.versions?.node) return `node ${g.process.versions.node}${where}`;
  return 'unknown runtime';
}

let cached: string | undefined;

/** `payments-service-sdk/0.1.0 (node 20.20.2; linux x64)`: lets the service's operators see who calls. */
export function userAgent(): string {
  cached ??= `payments-service-sdk/${VERSION} (${describeRuntime()})`;
  return cached;
}
