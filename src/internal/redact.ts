/**
 * The API key out of everything the SDK builds from a response or a fetch failure: a server or proxy that
 * echoes request headers (a 400 repeating them, an HTML error page, undici's parser error on a malformed
 * response) would otherwise carry the key into messages, `body`, `headers`, causes and log lines.
 */

export const REDACTED = '[redacted]';

/**
 * Keys this short are not searched for: replacing every occurrence of a 4-character test key would mangle the
 * bodies it appears in by chance. Real keys are far longer.
 */
const MIN_SECRET_LENGTH = 8;

/** A function that replaces `secret` (as sent, and as JSON escapes it) with `[redacted]` in a text. */
export function redactor(secret: string): (text: string) => string {
  if (secret.length < MIN_SECRET_LENGTH) return (text) => text;
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1)])];
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
    return out;
  };
}

/** Headers with the secret replaced in every value; the same object when no value holds it. */
export function redactHeaders(headers: Headers, redact: (text: string) => string): Headers {
  let changed = false;
  const copy = new Headers();
  headers.forEach((value, name) => {
    const clean = redact(value);
    if (clean !== value) changed = true;
    copy.append(name, clean);
  });
  return changed ? copy : headers;
}

/**
 * A fetch failure's cause, reduced to what is safe to keep: name, message and `code` (ECONNREFUSED), redacted,
 * and the same for its own cause. Other fields go: undici's parser error keeps the raw bytes it choked on in
 * `data`, and ky's errors keep the request with its headers.
 */
export function safeCause(cause: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (!(cause instanceof Error)) return typeof cause === 'string' ? redact(cause) : cause;
  const inner =
    depth < 4 && cause.cause !== undefined ? safeCause(cause.cause, redact, depth + 1) : undefined;
  const copy = new Error(redact(cause.message), inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code: redact(code) });
  return copy;
}
