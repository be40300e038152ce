import { invalid } from '../core/error.js';
import { isUuid } from '../rules/ids.js';

/** The problem with a character that compatibility normalisation (NFKC) turns into `.`, `/` or `\` (`．`, `／`, `＼`). */
function lookalike(path: string): string | undefined {
  // Only a character beyond printable ASCII can be one: the paths the SDK builds have none, and this runs per
  // request.
  if (!/[^ -~]/.test(path)) return undefined;
  const char = [...path].find((c) => c.charCodeAt(0) > 0x7f && /[./\\]/.test(c.normalize('NFKC')));
  return char && `must not contain "${char}", which normalises to ".", "/" or "\\"`;
}

/**
 * What a caller-built path must not hold, each with the message that names it, checked in order. URL parsing
 * treats `.`, `%2e`, `..`, `.%2e`, `%2e.` and `%2e%2e` (any case) as dot segments; `%25` hides a second round of
 * decoding (`%252e%252e`); `%00`-`%1f` and `%7f` are control bytes; some servers and proxies drop `;...`
 * parameters and then see `..` (`/a;/..;/b`).
 */
const UNSAFE_PATH: ReadonlyArray<[(path: string) => boolean, string]> = [
  [(p) => !p.startsWith('/'), 'must start with "/"'],
  [(p) => /[?#\\\s]/.test(p), 'must not contain "?", "#", "\\" or white space (pass query separately)'],
  [(p) => p.split('/').some((s) => /^(?:\.|%2e){1,2}$/i.test(s)), 'must not contain "." or ".." segments'],
  [(p) => /%2f|%5c/i.test(p), 'must not contain encoded slashes'],
  [(p) => /%25|%[01][0-9a-f]|%7f/i.test(p), 'must not contain "%25" or encoded control characters'],
  [(p) => p.includes(';'), 'must not contain ";"'],
];

/**
 * Checks a caller-built path for `client.request`: it must be relative to the base URL, start with `/`, and
 * hold no dot segments, query, fragment or backslash, so the request cannot leave `/api/v1/external`.
 */
export function assertSafePath(path: string): string {
  const problem = UNSAFE_PATH.find(([unsafe]) => unsafe(path))?.[1] ?? lookalike(path);
  if (problem) throw invalid(['path'], problem);
  return path;
}

/**
 * A path built from its template, each `{name}` filled with a uuid (the spec types every path parameter so:
 * anything else is refused before sending), and the template itself, which tracing reports in place of the
 * path so that no id reaches a span name.
 */
export function route(template: string, ids: Record<string, unknown>): { path: string; template: string } {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!isUuid(ids[name])) throw invalid([name], 'must be a uuid');
    return ids[name];
  });
  return { path, template };
}
