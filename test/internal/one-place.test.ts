import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md: the response stage (src/internal/response.ts) is the only place an APIError, a
// ResponseValidationError or an AcceptedButUnreadableError is made, and the transport (src/internal/transport.ts)
// the only place its result is. This reads the SDK's own source for any other place that makes one.

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const API_ERRORS = [
  'APIError',
  'BadRequestError',
  'AuthenticationError',
  'PermissionDeniedError',
  'NotFoundError',
  'ConflictError',
  'RateLimitError',
  'InternalServerError',
];

/** Where in `src/` a pattern occurs, as `file:line`. */
function occurrences(pattern: RegExp): string[] {
  return sources(SRC).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${relative(SRC, file)}:${i + 1}`] : [])),
  );
}

const files = (places: string[]) => [...new Set(places.map((p) => p.split(':')[0]))];

describe('one place for each decision', () => {
  it('APIErrors, ResponseValidationErrors and AcceptedButUnreadableErrors are made only in internal/response.ts', () => {
    const made = new RegExp(
      `new (${API_ERRORS.join('|')}|ResponseValidationError|AcceptedButUnreadableError)\\(|APIError\\.from\\(`,
    );
    const places = occurrences(made);
    expect(places.length).toBeGreaterThan(0);
    expect(files(places)).toEqual(['internal/response.ts']);
  });

  it("the transport's result is built only in internal/transport.ts, and only the transport calls ky", () => {
    expect(files(occurrences(/kind: '(response|accepted-unreadable|failed)'/))).toEqual([
      'internal/transport.ts',
    ]);
    expect(files(occurrences(/from 'ky'/))).toEqual(['internal/transport.ts']);
  });

  it('whether a request commits (is not safe to repeat) is decided only in the transport', () => {
    expect(files(occurrences(/(?<!function )isSafeToRepeat\(/))).toEqual(['internal/transport.ts']);
  });

  it('no file under src/ is over 300 lines', () => {
    const long = sources(SRC)
      .map((file) => [relative(SRC, file), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
  });
});
