import type { BodyFault } from './faults.js';

const OVERSIZED_PADDING = 9 * 1024 * 1024;

/**
 * The answer's status and headers with half its body, then a cut (the stream errors as undici's does when a
 * socket closes early) or a stall (nothing more until the client gives up); or, `oversized`, the whole answer
 * then 9 MiB of spaces (still valid JSON), streamed in 64 KiB chunks rather than held. `content-length` names
 * the whole body, so a client over a real socket sees the truncation too.
 */
export async function partialBody(
  response: Response,
  kind: BodyFault,
  signal: AbortSignal,
): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (kind === 'oversized') {
    const spaces = new Uint8Array(64 * 1024).fill(0x20);
    let left = OVERSIZED_PADDING;
    return streamed(response, bytes, bytes.length + OVERSIZED_PADDING, (controller) => {
      if (left <= 0) return controller.close();
      const chunk = spaces.subarray(0, Math.min(spaces.length, left));
      left -= chunk.length;
      controller.enqueue(chunk);
    });
  }
  return streamed(response, bytes.subarray(0, Math.floor(bytes.length / 2)), bytes.length, (controller) => {
    const cut = () => controller.error(new TypeError('terminated'));
    if (signal.aborted) return cut();
    if (kind === 'cut') return new Promise<void>((resolve) => setTimeout(() => resolve(cut()), 1));
    return new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => resolve(cut()), { once: true });
    });
  });
}

/** `first`, then whatever `rest` pulls, under the response's status and headers and a declared `length`. */
function streamed(
  response: Response,
  first: Uint8Array,
  length: number,
  rest: (controller: ReadableStreamDefaultController<Uint8Array>) => void | Promise<void>,
): Response {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    // Pulled, not pushed: an error raised while the first chunk is still queued would discard it.
    pull(controller) {
      if (sent) return rest(controller);
      sent = true;
      controller.enqueue(first);
    },
  });
  const headers = new Headers(response.headers);
  headers.set('content-length', String(length));
  return new Response(body, { status: response.status, headers });
}

/** A response withheld until the client gives up on the request (its signal aborts), then a cut connection. */
export function held(request: Request): Promise<Response> {
  return new Promise((resolve) => {
    const cut = () => resolve(Response.error());
    if (request.signal.aborted) cut();
    else request.signal.addEventListener('abort', cut, { once: true });
  });
}
