/**
 * Vitest setup file (see `setupFiles` in vitest.config.ts): a guard over the whole suite. It watches
 * `process.stdout.write`, `process.stderr.write` and `console.*` for the canary API key the tests use; the key is
 * redacted from what is written, and any test (or file) during which it was seen fails.
 */
import { inspect } from 'node:util';
import { afterAll, afterEach } from 'vitest';

/** Same value as `CANARY_KEY` in test/helpers.ts (secrets.test.ts asserts it); kept here so this file imports nothing heavy. */
export const GUARD_CANARY = 'sk_test_CANARY_7f3a9c1e5b';
const REDACTED = '[CANARY REDACTED]';
const WRAPPED = Symbol.for('payments-service-sdk.canary-guard.wrapped');
const STATE = Symbol.for('payments-service-sdk.canary-guard');

/** What the guard has seen since the last check; `take()` empties it (the guard's own self-test uses it). */
export interface CanaryGuard {
  sightings: string[];
  take(): string[];
}

const globals = globalThis as unknown as Record<symbol, CanaryGuard | undefined>;
const guard: CanaryGuard = globals[STATE] ?? {
  sightings: [],
  take() {
    return this.sightings.splice(0);
  },
};
globals[STATE] = guard;

function note(where: string, text: string): string {
  const at = text.indexOf(GUARD_CANARY);
  guard.sightings.push(`${where}: …${text.slice(Math.max(0, at - 40), at).replaceAll('\n', ' ')}${REDACTED}`);
  return text.replaceAll(GUARD_CANARY, REDACTED);
}

type Marked = { [WRAPPED]?: true };

function guardStream(name: 'stdout' | 'stderr'): void {
  const stream = process[name];
  if ((stream.write as Marked)[WRAPPED]) return;
  const original = stream.write;
  const write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : '';
    const out = text.includes(GUARD_CANARY) ? note(`process.${name}.write`, text) : chunk;
    return (original as (...args: unknown[]) => boolean).call(this, out, ...rest);
  };
  (write as Marked)[WRAPPED] = true;
  stream.write = write as typeof stream.write;
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table'] as const;

function guardConsole(): void {
  for (const method of CONSOLE_METHODS) {
    const original = console[method] as ((...args: unknown[]) => void) & Marked;
    if (original[WRAPPED]) continue;
    const wrapped = (...args: unknown[]) => {
      const text = args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 8 }))).join(' ');
      if (!text.includes(GUARD_CANARY)) return original.apply(console, args);
      return original.call(console, note(`console.${method}`, text));
    };
    (wrapped as Marked)[WRAPPED] = true;
    console[method] = wrapped;
  }
}

guardStream('stdout');
guardStream('stderr');
guardConsole();

function check(when: string): void {
  const seen = guard.take();
  if (seen.length) {
    throw new Error(`The canary API key was written to the output ${when}:\n${seen.join('\n')}`);
  }
}

afterEach(() => check('during this test'));
afterAll(() => check('outside any test of this file'));
