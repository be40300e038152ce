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

/**
 * Account numbers (NUBANs are 10 digits; wires and IBANs run longer) are personal data: any run of 8 or more
 * digits in a log line keeps only its last 4.
 */
export function maskDigits(line: string): string {
  return line.replace(/\d{8,}/g, (run) => `${'*'.repeat(run.length - 4)}${run.slice(-4)}`);
}

/** The SDK's logger: level-filtered, masked, and prefixed so lines are easy to grep. */
export class LevelLogger {
  constructor(
    readonly sink: Logger,
    readonly level: LogLevel,
  ) {}

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] <= RANK[this.level];
  }

  log(level: Exclude<LogLevel, 'off'>, message: string): void {
    if (this.enabled(level)) this.sink[level](`[payments-service-sdk] ${maskDigits(message)}`);
  }
}
