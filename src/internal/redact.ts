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

/** A text with the secret replaced; `cut` also drops a tail that begins the secret (a body cut mid-echo). */
export type Redact = (text: string, cut?: boolean) => string;

/**
 * The secret as any JSON encoder may write it: each character that is not a letter or digit as itself, `\`
 * before it (`\/`, as PHP writes a slash) or `\uXXXX` (as .NET writes `+`), in either case of hex digits (the
 * `i` flag: a key echoed in another case of letters is redacted too).
 */
function pattern(secret: string): RegExp {
  const parts = [...secret].map((char) => {
    const literal = char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    if (/[A-Za-z0-9]/.test(char)) return literal;
    return `(?:${literal}|\\\\${literal}|\\\\u${char.charCodeAt(0).toString(16).padStart(4, '0')})`;
  });
  return new RegExp(parts.join(''), 'gi');
}

export function redactor(secret: string): Redact {
  if (secret.length < MIN_SECRET_LENGTH) return (text) => text;
  const regex = pattern(secret);
  // The longest run of letters and digits in the secret: a cheap test that rules most texts out at once.
  const probe = (secret.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  const head = secret.slice(0, Math.min(secret.length - 1, 24));
  return (text, cut = false) => {
    let out = probe.length >= 4 && !text.includes(probe) ? text : text.replace(regex, REDACTED);
    if (cut) {
      // The last characters may be the start of the key, cut at the limit: drop them from 4 characters up.
      for (let n = head.length; n >= 4; n--) {
        if (out.endsWith(head.slice(0, n))) {
          out = `${out.slice(0, -n)}${REDACTED}`;
          break;
        }
      }
    }
    return out;
  };
}

/**
 * Headers with the secret replaced in every value; the same object, and nothing allocated, when no value holds
 * it (every response passes through here).
 */
export function redactHeaders(headers: Headers, redact: Redact): Headers {
  let echoed = false;
  headers.forEach((value) => {
    echoed ||= redact(value) !== value;
  });
  if (!echoed) return headers;
  const copy = new Headers();
  headers.forEach((value, name) => {
    copy.append(name, redact(value));
  });
  return copy;
}

/**
 * A fetch failure's cause, reduced to what is safe to keep: name, message and `code` (ECONNREFUSED), redacted,
 * and the same for its own cause. Other fields go: undici's parser error keeps the raw bytes it choked on in
 * `data`, and ky's errors keep the request with its headers.
 */
export function safeCause(cause: unknown, redact: Redact, depth = 0): unknown {
  if (!(cause instanceof Error)) return typeof cause === 'string' ? redact(cause) : cause;
  const inner =
    depth < 4 && cause.cause !== undefined ? safeCause(cause.cause, redact, depth + 1) : undefined;
  const copy = new Error(redact(cause.message), inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code: redact(code) });
  return copy;
}
