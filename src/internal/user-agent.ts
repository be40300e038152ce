import { VERSION } from '../version.js';
import { optionKeys } from './option-keys.js';

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

export const APP_INFO_KEYS = optionKeys<AppInfo>()(['name', 'version', 'url']);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks `appInfo`; the problem with it, if any, as a field and a message. */
export function appInfoIssue(info: AppInfo): { path: string[]; message: string } | undefined {
  if (typeof info.name !== 'string' || !TOKEN.test(info.name)) {
    return { path: ['appInfo', 'name'], message: "must be a token (letters, digits, !#$%&'*+.^_`|~-)" };
  }
  if (info.version !== undefined && (typeof info.version !== 'string' || !TOKEN.test(info.version))) {
    return { path: ['appInfo', 'version'], message: 'must be a token such as 1.4.2' };
  }
  if (
    info.url !== undefined &&
    (typeof info.url !== 'string' || !/^https?:\/\/[\x21-\x27\x2a-\x7e]+$/.test(info.url))
  ) {
    return { path: ['appInfo', 'url'], message: 'must be an http(s) URL without spaces or parentheses' };
  }
  return undefined;
}

/**
 * `payments-service-sdk/0.1.0 (node 24.21.0; linux x64)`, then `shop/2.1 (+https://shop.example)` when the
 * app says who it is: lets the service's operators see who calls.
 */
export function userAgent(app?: AppInfo): string {
  cached ??= `payments-service-sdk/${VERSION} (${describeRuntime()})`;
  if (!app) return cached;
  return `${cached} ${app.name}${app.version ? `/${app.version}` : ''}${app.url ? ` (+${app.url})` : ''}`;
}
