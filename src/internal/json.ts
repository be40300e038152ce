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
