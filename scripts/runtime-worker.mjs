/**
 * The smoke checks as a module worker, for the edge runtimes. `runtime-edge.mjs` bundles it with
 * `dist/index.js` and its dependencies into one module (neither runtime resolves node_modules), then calls its
 * `fetch` handler: workerd through miniflare's dispatchFetch, edge-runtime through a fetch event listener.
 *
 *   GET /?baseUrl=<mock base URL>  ->  { runtime, globals: { window, document }, results: [...] }
 */
import * as core from '../dist/index.js';
import * as payouts from '../dist/payouts.js';
import * as uploads from '../dist/uploads.js';
import { browserGlobals, describeRuntime, runChecks } from './runtime-checks.mjs';

/** The three entries a merchant's app imports from: the core, `/payouts` and `/uploads`. */
const sdk = { ...core, ...payouts, ...uploads };

export default {
  async fetch(request) {
    const baseUrl = new URL(request.url).searchParams.get('baseUrl');
    const runtime = describeRuntime();
    const results = await runChecks(sdk, baseUrl, {
      runtime,
      // Neither runtime can read the host's disk, and the SDK reads a path with node:fs, which a plain
      // worker (no nodejs_compat, as here) and edge-runtime do not have.
      noFiles: `${runtime} has no file system to read a path from (no node:fs)`,
    });
    const body = JSON.stringify({ runtime, globals: browserGlobals(), results });
    return new Response(body, { headers: { 'content-type': 'application/json' } });
  },
};
