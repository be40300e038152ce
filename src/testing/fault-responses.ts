import type { BodyFault } from './faults.js';

/**
 * The answer's status and headers with half its body, then a cut (the stream errors as undici's does when a
 * socket closes early) or a stall (nothing more until the client gives up). `content-length` names the whole
 * body, so a client over a real socket sees the truncation too.
 */
export async function partialBody(
  response: Response,
  kind: BodyFault,
  signal: AbortSignal,
): Promise<Response> {
  if (kind === 'oversized') return padded(response, OVERSIZED_PADDING);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    // Pulled, not pushed: an error raised while the half is still queued would discard it.
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(half);
        return;
      }
      const cut = () => controller.error(new TypeError('terminated'));
      if (signal.aborted) return cut();
      if (kind === 'cut') return new Promise<void>((resolve) => setTimeout(() => resolve(cut()), 1));
      return new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve(cut()), { once: true });
      });
    },
  });
  const headers = new Headers(response.headers);
  headers.set('content-length', String(bytes.length));
  return new Response(body, { status: response.status, headers });
}

const OVERSIZED_PADDING = 9 * 1024 * 1024;

/** The answer, then `padding` bytes of spaces (still valid JSON), streamed in 64 KiB chunks rather than held. */
async function padded(response: Response, padding: number): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const spaces = new Uint8Array(64 * 1024).fill(0x20);
  let left = padding;
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (first) {
        first = false;
        return controller.enqueue(bytes);
      }
      if (left <= 0) return controller.close();
      const chunk = spaces.subarray(0, Math.min(spaces.length, left));
      left -= chunk.length;
      controller.enqueue(chunk);
    },
  });
  const headers = new Headers(response.headers);
  headers.set('content-length', String(bytes.length + padding));
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
