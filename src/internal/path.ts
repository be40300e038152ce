import { RequestValidationError } from '../core/error.js';
import { isUuid } from './uuid.js';

/** A path parameter the spec types as uuid: anything else is refused before sending. */
export function uuidSegment(name: string, value: unknown): string {
  if (!isUuid(value)) throw new RequestValidationError([{ path: [name], message: 'must be a uuid' }]);
  return value;
}

/**
 * Checks a caller-built path for `client.request`: it must be relative to the base URL, start with `/`, and
 * hold no dot segments, query, fragment or backslash, so the request cannot leave `/api/v1/external`.
 */
export function assertSafePath(path: string): string {
  const problem = !path.startsWith('/')
    ? 'must start with "/"'
    : /[?#\\\s]/.test(path)
      ? 'must not contain "?", "#", "\\" or white space (pass query separately)'
      : // URL parsing treats `.`, `%2e`, `..`, `.%2e`, `%2e.` and `%2e%2e` (any case) as dot segments.
        path.split('/').some((s) => /^(?:\.|%2e){1,2}$/i.test(s))
        ? 'must not contain "." or ".." segments'
        : /%2f|%5c/i.test(path)
          ? 'must not contain encoded slashes'
          : undefined;
  if (problem) throw new RequestValidationError([{ path: ['path'], message: problem }]);
  return path;
}
