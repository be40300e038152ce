// Run by bench/processes.mjs in a fresh process: how long zod/mini spends building the SDK's schemas while
// dist/index.js loads. The SDK's modules get a zod/mini whose functions add up the time spent in them
// (outermost calls only); ky and zod/mini are loaded first, so the import timed is the SDK's own modules.
// Prints { schemaMs, calls, importMs } as JSON. The wrapping slows that import a little; it is not start-up.
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
import 'ky';
import * as real from 'zod/mini';
import { here } from './common.mjs';

const DIST_DIR = pathToFileURL(here('../dist/')).href;
const TIMED_URL = 'bench:timed-zod-mini';
const timed = { ms: 0, calls: 0, depth: 0 };

const exports = {};
for (const [name, value] of Object.entries(real)) {
  // Lower-case functions are zod/mini's factories and checks; classes and objects pass through untouched.
  exports[name] =
    typeof value === 'function' && /^[a-z]/.test(name)
      ? function (...args) {
          if (timed.depth++) {
            try {
              return value.apply(this, args);
            } finally {
              timed.depth--;
            }
          }
          const t0 = performance.now();
          try {
            return value.apply(this, args);
          } finally {
            timed.ms += performance.now() - t0;
            timed.calls++;
            timed.depth--;
          }
        }
      : value;
}
globalThis.__benchTimedZod = exports;
const source = [
  'const t = globalThis.__benchTimedZod;',
  ...Object.keys(exports).map(
    (n, i) => `const _${i} = t[${JSON.stringify(n)}]; export { _${i} as ${JSON.stringify(n)} };`,
  ),
].join('\n');

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'zod/mini' && context.parentURL?.startsWith(DIST_DIR))
      return { url: TIMED_URL, shortCircuit: true };
    return next(specifier, context);
  },
  load(url, context, next) {
    if (url === TIMED_URL) return { format: 'module', source, shortCircuit: true };
    return next(url, context);
  },
});

const t0 = performance.now();
await import('../dist/index.js');
const importMs = performance.now() - t0;
console.log(JSON.stringify({ schemaMs: timed.ms, calls: timed.calls, importMs }));
