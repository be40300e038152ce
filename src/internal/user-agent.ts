import * as z from 'zod/mini';
import { option, optionBag } from '../rules/option-bag.js';
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

/** Client option `appInfo`: your application, appended to the User-Agent. */
export interface AppInfo {
  /** A token: letters, digits and `!#$%&'*+.^_|~-`. */
  name: string;
  version?: string;
  url?: string;
}

/** An RFC 9110 token: what a header name, a User-Agent product and its version must be. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const matching = (rule: RegExp) => (value: unknown) => typeof value === 'string' && rule.test(value);

/** `appInfo`: what each field must match (`name` is required), and the message naming the fix. */
const appInfoOptions = optionBag<AppInfo>({
  name: z.custom(matching(TOKEN), "must be a token (letters, digits, !#$%&'*+.^_`|~-)"),
  version: option(matching(TOKEN), 'must be a token such as 1.4.2'),
  url: option(
    matching(/^https?:\/\/[\x21-\x27\x2a-\x7e]+$/),
    'must be an http(s) URL without spaces or parentheses',
  ),
});

/**
 * `payments-service-sdk/0.1.0 (node 24.21.0; linux x64)`, then `shop/2.1 (+https://shop.example)` when the
 * app says who it is (checked here): lets the service's operators see who calls.
 */
export function userAgent(app?: AppInfo): string {
  cached ??= `payments-service-sdk/${VERSION} (${describeRuntime()})`;
  if (!app) return cached;
  appInfoOptions.read(app, 'PaymentsClient appInfo', ['appInfo']);
  return `${cached} ${app.name}${app.version ? `/${app.version}` : ''}${app.url ? ` (+${app.url})` : ''}`;
}
