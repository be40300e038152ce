import { PaymentsClient } from 'payments-service-sdk';
import { ConfigError } from './config-error.js';
import { currencyCode } from './guards/settings.js';

/**
 * The readers of the settings table (settings.ts): each takes the value as given (trimmed; undefined when unset
 * or empty) and the setting's name, and returns what it means or throws a ConfigError naming the setting. Strict:
 * `6e4`, `0x10`, an empty item or a word where a number goes is refused, never read as something else.
 */

const WHOLE = /^\d+$/;

/** Whole milliseconds, digits only, within `[min, max]`; `fallback` when unset. */
export const wholeMs =
  (fallback: number, min = 0, max = 2 ** 31 - 1) =>
  (text: string | undefined, name: string): number => {
    if (text === undefined) return fallback;
    const value = WHOLE.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      const range = `${min > 0 ? ` above ${min - 1}` : ''}, at most ${max}`;
      throw new ConfigError(`${name} must be whole milliseconds${range} (got ${JSON.stringify(text)})`);
    }
    return value;
  };

/** A switch: `1`/`true` on, `0`/`false` (or unset) off. */
export function onOff(text: string | undefined, name: string): boolean {
  const value = text?.toLowerCase();
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0 (got ${JSON.stringify(text)})`);
}

/** Comma-separated whole milliseconds, each given (no empty item); undefined when unset. */
export function msList(text: string | undefined, name: string): number[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(',').map((w) => w.trim());
  if (!items.every((w) => WHOLE.test(w))) {
    throw new ConfigError(`${name} must be comma-separated whole milliseconds (got ${JSON.stringify(text)})`);
  }
  return items.map(Number);
}

/** `base,max` whole milliseconds, base at most max. */
export const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 5000 };
export function backoff(text: string | undefined, name: string): { baseMs: number; maxMs: number } {
  if (text === undefined) return DEFAULT_BACKOFF;
  const items = text.split(',').map((w) => w.trim());
  const [baseMs, maxMs] = items.map(Number) as [number, number];
  if (items.length !== 2 || !items.every((w) => WHOLE.test(w)) || maxMs < baseMs) {
    throw new ConfigError(
      `${name} must be "base,max" whole milliseconds, base at most max (got ${JSON.stringify(text)})`,
    );
  }
  return { baseMs, maxMs };
}

/** Currency codes, comma-separated (empty items skipped), each as `currencyCode` reads one. */
export function currencies(text: string | undefined, name: string): string[] {
  return (text ?? '')
    .split(',')
    .filter((c) => c.trim() !== '')
    .map((c) => {
      const code = currencyCode(name, c);
      if (!code) throw new ConfigError(`${name}: ${JSON.stringify(c.trim())} is not a currency code`);
      return code;
    });
}

export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The SDK's log level for the server's stderr. */
export function logLevel(text: string | undefined, name: string): LogLevel {
  if (text === undefined) return 'warn';
  const level = text.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`${name} must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(text)})`);
  }
  return level as LogLevel;
}

/** A value the client must take, judged by the SDK's own client, and named as the setting it came from. */
function sdkTakes(name: string, options: ConstructorParameters<typeof PaymentsClient>[0]): void {
  try {
    new PaymentsClient({ apiKey: 'probe', baseUrl: 'https://probe.invalid', ...options });
  } catch (error) {
    throw new ConfigError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A required value, as the SDK's client takes it (`key`: the client option it becomes). */
export const required =
  (key: 'apiKey' | 'baseUrl') =>
  (text: string | undefined, name: string): string => {
    if (text === undefined) throw new ConfigError(`${name} is not set`);
    sdkTakes(name, { [key]: text });
    return text;
  };

/** The account every call acts on: a uuid, as the SDK's client takes one. */
export function accountId(text: string | undefined, name: string): string | undefined {
  if (text !== undefined) sdkTakes(name, { accountId: text });
  return text;
}
