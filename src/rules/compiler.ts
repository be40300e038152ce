import { compile, config, util } from 'zod/mini';

/**
 * zod's ahead-of-time compiler, for the runtimes that may generate code (Node, Bun, Deno): package.json's
 * `#compiler` import resolves here under their conditions, and to `no-compiler.ts` under every other one
 * (Workers, the edge runtime, browsers, a bundler's default), so the compiler's code (about 10 kB gzipped)
 * enters no bundle that cannot use it. When a schema is compiled is decided in `schema.ts`.
 */

/** zod's `compile`, or why it does not run here. */
export function compiler(): typeof compile | string {
  // A CSP-bound app sets `jitless`; zod's explicit `compile` would not look at it, so it is read here.
  if (config().jitless) return 'z.config({ jitless: true }) is set';
  // False where `new Function` throws (a CSP, Node's --disallow-code-generation-from-strings) and on Workers.
  if (!util.allowsEval.value) return 'code generation is not allowed here';
  return compile;
}
