import { type FieldIssue, nameClass, RequestValidationError } from './error.js';
import { type UnknownOption, unknownOptionMessage, unknownOptions } from './option-keys.js';

/**
 * An option bag was given a key it does not take: `new PaymentsClient({ maxRetry: 2 })` is "Unknown option
 * maxRetry for PaymentsClient: did you mean maxRetries?". Thrown before anything is sent. A
 * `RequestValidationError`, so `field` and `issues` name the key as for any refused input.
 */
export class UnknownOptionError extends RequestValidationError {
  /** What takes the options: `PaymentsClient`, `lookupBeforeRetry`, `createPayoutOutbox`, ... */
  readonly bag: string;
  /** Every key refused, each with the known key closest to it, when one is close. */
  readonly unknown: UnknownOption[];
  constructor(bag: string, unknown: UnknownOption[], issues: FieldIssue[]) {
    super(issues, unknownOptionMessage(bag, unknown));
    this.bag = bag;
    this.unknown = unknown;
  }
}

nameClass(UnknownOptionError, 'UnknownOptionError');

/**
 * Throws an `UnknownOptionError` naming every own key of `given` that `known` does not hold, with a
 * did-you-mean where one is close. `bag` names what takes the options (`PaymentsClient`); `prefix` places the
 * bag in a larger one for `field` (e.g. `['hooks']`).
 */
export function refuseUnknownKeys(
  given: unknown,
  known: readonly string[],
  bag: string,
  prefix: string[] = [],
): void {
  const unknown = unknownOptions(given, known);
  if (unknown.length === 0) return;
  const issues = unknown.map(({ key, suggestion }) => ({
    path: [...prefix, key],
    message: `unknown option \`${key}\`${suggestion ? `; did you mean \`${suggestion}\`?` : ''}`,
  }));
  throw new UnknownOptionError(bag, unknown, issues);
}
