/** Levels in increasing verbosity; a message is written when its level is at or below the configured one. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Anything with console-like methods: `console`, pino, winston. */
export interface Logger {
  /** Failures the caller should see. */
  error(message: string, ...rest: unknown[]): void;
  /** Deprecations and suspicious responses. */
  warn(message: string, ...rest: unknown[]): void;
  /** Retries. */
  info(message: string, ...rest: unknown[]): void;
  /** Every request and response line. */
  debug(message: string, ...rest: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && value in RANK;
}

/** Longest log line written, in characters; the rest is replaced by a count. */
const MAX_LOG_LINE = 2_000;

/** The SDK's logger: level-filtered, masked, escaped, capped, and prefixed so lines are easy to grep. */
export class LevelLogger {
  constructor(
    readonly sink: Logger,
    readonly level: LogLevel,
    /** Values never written (the API key): replaced by `[redacted]` wherever they appear. */
    readonly redact: (text: string) => string = (text) => text,
  ) {}

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] <= RANK[this.level];
  }

  log(level: Exclude<LogLevel, 'off'>, message: string): void {
    if (!this.enabled(level)) return;
    // Account numbers (NUBANs are 10 digits; wires and IBANs run longer) are personal data: a run of 8 or more
    // digits keeps only its last 4. Parts of a line may come from a response (an id, a warning): control
    // characters are escaped so that a value cannot start a forged line of its own (`\n[payments-service-sdk]
    // ...`) or drive a terminal (ANSI escapes).
    let line = this.redact(message)
      .replace(/\d{8,}/g, (run) => `${'*'.repeat(run.length - 4)}${run.slice(-4)}`)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped here.
      .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g, (c) => {
        const code = c.charCodeAt(0);
        return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
      });
    if (line.length > MAX_LOG_LINE) {
      line = `${line.slice(0, MAX_LOG_LINE)}… [${line.length - MAX_LOG_LINE} more characters]`;
    }
    this.sink[level](`[payments-service-sdk] ${line}`);
  }
}
