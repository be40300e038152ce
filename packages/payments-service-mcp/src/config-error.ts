/** A start-up refusal: printed as one line on stderr, exit code 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
