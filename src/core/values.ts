/** A JSON object (not null, not an array): the one "is this an object" check, for bodies, rows and caller input. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What was thrown, as text: an Error's message, anything else as a string. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * `JSON.stringify` that cannot throw: JSON.parse accepts nesting far deeper than JSON.stringify can write back
 * (a hostile body 200,000 levels deep parses, then overflows the stack when stringified).
 */
export function safeStringify(value: unknown, fallback = '[unprintable]'): string {
  try {
    return JSON.stringify(value) ?? fallback;
  } catch {
    return fallback;
  }
}
