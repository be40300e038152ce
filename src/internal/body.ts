import { ResponseTooLargeError } from '../core/error.js';
import { parseOwnJson, prototypePolluted } from '../core/own.js';
import type { Redact } from './redact.js';

/**
 * Reading a response body: inside its attempt, so the attempt's timeout and the caller's signal also cover a
 * body that stalls after the headers; and never more than `maxResponseBytes` of it, counted after decoding, so
 * neither a huge body nor a gzip bomb can exhaust the process.
 */

/** What came back: status, headers and the body, parsed when it was JSON. */
export interface TransportResponse {
  status: number;
  headers: Headers;
  body: unknown;
  /** False when the body was not JSON (an HTML page from a proxy, a CSV export). */
  json: boolean;
  /** The body as received (with the API key redacted, should the server echo it). */
  text: string;
}

/** An attempt's body as read: its text, and whether it was cut at `maxResponseBytes` (an error body). */
export interface ReadBody {
  text: string;
  /** The tail of a cut body may be part of an echoed key: redaction must treat it so. */
  cut: boolean;
}

/** The declared length when it bounds the decoded body: no content coding, or the identity one. */
function plainLength(headers: Headers): number | undefined {
  const coding = headers.get('content-encoding');
  if (coding && coding.trim().toLowerCase() !== 'identity') return undefined;
  const length = headers.get('content-length');
  return length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
}

/**
 * At most `limit` bytes of the body as text. Over the limit: a 2xx throws `ResponseTooLargeError` (its body is
 * what was asked for, and a part of it is no answer); any other status keeps the first `limit` bytes, since the
 * status alone decides that error and a proxy's huge error page must not crash or stall it.
 */
async function readLimited(response: Response, limit: number): Promise<ReadBody> {
  const declared = plainLength(response.headers);
  // The fast path: fetch enforces Content-Length, so a body that declares a small enough length cannot exceed it.
  if (declared !== undefined && declared <= limit) return { text: await response.text(), cut: false };
  const body = response.body;
  if (!body) return { text: '', cut: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > limit) {
      void reader.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300)
        throw new ResponseTooLargeError(response.status, limit);
      chunks.push(value.subarray(0, limit - total));
      cut = true;
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  return { text: await new Blob(chunks as BlobPart[]).text(), cut };
}

/** Reads the body within the attempt: the caller's or ky's signal aborting ends the read too. */
export async function readWithin(
  response: Response,
  signal: AbortSignal | null | undefined,
  limit: number,
): Promise<ReadBody> {
  return new Promise<ReadBody>((resolve, reject) => {
    // Not every fetch (MSW's, a custom one) ties a body read to the request's signal: race it explicitly.
    const onAbort = () => {
      void response.body?.cancel().catch(() => undefined);
      reject(signal?.reason);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    readLimited(response, limit)
      .then(resolve, reject)
      .finally(() => signal?.removeEventListener('abort', onAbort));
  });
}

function parseBody(text: string, headers: Headers): { body: unknown; json: boolean } {
  if (text === '') return { body: undefined, json: true };
  const type = headers.get('content-type') ?? '';
  // Some proxies label JSON as text/plain; try to parse anything that is not declared as another type.
  if (type === '' || /json|text\/plain/i.test(type)) {
    try {
      return { body: prototypePolluted() ? parseOwnJson(text) : JSON.parse(text), json: true };
    } catch {
      // fall through: keep the text
    }
  }
  return { body: text, json: false };
}

/** The response as the SDK sees it: `headers` already redacted, the key replaced wherever the body echoed it. */
export function toTransportResponse(
  status: number,
  headers: Headers,
  read: ReadBody,
  redact: Redact,
): TransportResponse {
  const text = redact(read.text, read.cut);
  return { status, headers, text, ...parseBody(text, headers) };
}
