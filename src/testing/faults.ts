import { anyValue, optionBag } from '../rules/option-bag.js';
import { MockHttpError } from './http.js';
import { escapeRegExp } from './router.js';

/** A request as a fault's `match` sees it: the method, the path under the base path, and the query. */
export interface FaultRequest {
  method: string;
  path: string;
  query: URLSearchParams;
}

/**
 * Which requests a fault applies to: `'POST /payouts'`, `'/transactions'` (any method), `*` for one segment; or
 * a function of the request (its query too, e.g. to strike only a walk's continuation by time).
 */
export type FaultMatch = string | ((request: FaultRequest) => boolean);

/** A canned failure for the next matching requests. */
export interface FaultSpec {
  status: number;
  /** `Retry-After` header: seconds, or an HTTP date string, sent verbatim. */
  retryAfter?: number | string;
  /** How many matching requests get it. Default 1. */
  times?: number;
  /** Body sent instead of the spec's error envelope. */
  body?: unknown;
  /** Default: every request. */
  match?: FaultMatch;
}

/** A fault's spec: its values are read where they are used (the answer, the matcher). */
const faultSpec = optionBag<FaultSpec>({
  status: anyValue,
  retryAfter: anyValue,
  times: anyValue,
  body: anyValue,
  match: anyValue,
});

const MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** The error a canned status answers with: the status's usual message, and `Retry-After` when set. */
export function faultError({ status, retryAfter }: FaultSpec): MockHttpError {
  const headers = retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) };
  return new MockHttpError(status, MESSAGES[status] ?? `HTTP ${status}`, {}, headers);
}

function matcher(match: FaultMatch | undefined): (request: FaultRequest) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === 'function') return match;
  const [first, second] = match.trim().split(/\s+/);
  const method = second === undefined ? '*' : (first ?? '*').toUpperCase();
  const pattern = second ?? first ?? '';
  const escaped = escapeRegExp(pattern.replace(/\/+$/, '')).replaceAll('\\*', '[^/]+');
  const regex = new RegExp(`^${escaped}/?$`);
  return (request) => (method === '*' || method === request.method) && regex.test(request.path);
}

/** The pipeline steps that take a pending fault, and what each takes: a status, a cut, a hang, which fault. */
interface Taken {
  next: FaultSpec;
  drop: true;
  'hang:before': true;
  'hang:after': true;
  'answer:after': FaultSpec;
  body: BodyFault;
  page: PageFault;
}

interface Pending {
  slot: keyof Taken;
  remaining: number;
  test: (request: FaultRequest) => boolean;
  detail: Taken[keyof Taken];
}

/** What happens to the body of an answer already under way: cut off, stalled, or padded past the client's limit. */
export type BodyFault = 'cut' | 'stall' | 'oversized';
/**
 * A listing request that continues a walk and goes wrong before the declared end: no rows, or the walk's first
 * page again (`page` and `endDate` ignored).
 */
export type PageFault = 'empty' | 'repeat';

/** Failure injection: canned statuses, cut or hung connections, latency and listing lag. Chainable. */
export class Faults {
  #pending: Pending[] = [];
  #latency = 0;
  #listingLag = 0;

  #add<S extends keyof Taken>(slot: S, match: FaultMatch | undefined, times: number, detail: Taken[S]): this {
    this.#pending.push({ slot, remaining: times, test: matcher(match), detail });
    return this;
  }

  /** Answers the next `times` matching requests with `status`, before auth and before any state change. */
  next(given: FaultSpec): this {
    const spec = faultSpec.read(given, 'mock.faults.next')!;
    return this.#add('next', spec.match, spec.times ?? 1, spec);
  }

  /**
   * The next matching request is processed and committed, then its connection is cut: MSW answers with a
   * network error, the loopback server destroys the socket, and `mock.handle` returns `Response.error()`.
   */
  dropAfterCommit(match: FaultMatch = 'POST /payouts', times = 1): this {
    return this.#add('drop', match, times, true);
  }

  /**
   * The next matching request is never answered and changes nothing: the client's timeout (or abort) is what
   * ends it. When the client gives up, MSW and `mock.handle` answer `Response.error()` and the loopback server
   * drops the socket; a client with no timeout and no signal waits forever.
   */
  hang(match: FaultMatch = 'POST /payouts', times = 1): this {
    return this.#add('hang:before', match, times, true);
  }

  /**
   * Like `dropAfterCommit`, but the answer is withheld instead of cut: the next matching request is processed
   * and committed, then hangs until the client's timeout (or abort) gives up on it.
   */
  hangAfterCommit(match: FaultMatch = 'POST /payouts', times = 1): this {
    return this.#add('hang:after', match, times, true);
  }

  /**
   * Like `next`, but after the commit: the next `times` matching requests (default `'POST /payouts'`) are
   * processed and committed, then answered with `status` (and `Retry-After`, or `body`, when given) instead of
   * their own answer, as a gateway's 502, 503 or 504, a 408 or a 429 can arrive after the service took the
   * payout. The money moved; the answer says it did not.
   */
  answerAfterCommit(given: FaultSpec): this {
    const spec = faultSpec.read(given, 'mock.faults.answerAfterCommit')!;
    return this.#add('answer:after', spec.match ?? 'POST /payouts', spec.times ?? 1, spec);
  }

  /**
   * The next matching request is processed and committed, and its answer starts: status line, headers and
   * half the body. Then `cut` ends the connection (the client's body read fails); `stall` sends nothing more
   * until the client gives up. `oversized` sends the whole answer followed by 9 MiB of JSON white space: valid,
   * but longer than the client's default `maxResponseBytes` (8 MiB). For a payout each is a 2xx the client
   * cannot read: the money moved. (`cut` comes a timer tick after the half: with fake timers, advance them.)
   */
  bodyFault(kind: BodyFault, match: FaultMatch = 'POST /payouts', times = 1): this {
    return this.#add('body', match, times, kind);
  }

  /**
   * The next matching listing request that continues a walk goes wrong before the listing's declared end. A
   * request continues a walk when it asks for a page after the first (an offset walk), or when its `endDate`
   * is a full timestamp (a walk by time: each next query is `page=1` ending at the last row's `created_at`); a
   * calendar-day `endDate` bounds a whole window, as a first query does, and does not count. `empty` answers
   * no rows (the counters still promise more); `repeat` answers as a cache that ignores the query would, as if
   * `page` and `endDate` were absent. A lookup that must prove a payout absent cannot count such a listing as
   * read. To strike some other request, match it with a function of its query.
   */
  pageFault(kind: PageFault, match: FaultMatch = 'GET /transactions', times = 1): this {
    return this.#add('page', match, times, kind);
  }

  /** Delays every response by `ms` (a `setTimeout`, so fake timers control it). 0 turns it off. */
  latency(ms: number): this {
    this.#latency = Math.max(0, ms);
    return this;
  }

  /** Transactions created from now on appear in listings only `ms` after their creation. */
  listingLag(ms: number): this {
    this.#listingLag = Math.max(0, ms);
    return this;
  }

  /** Removes every pending fault (statuses before or after a commit, drops, hangs), latency and listing lag. */
  clear(): void {
    this.#pending = [];
    this.#latency = 0;
    this.#listingLag = 0;
  }

  /** Current latency in ms. */
  get latencyMs(): number {
    return this.#latency;
  }

  /** Current listing lag in ms. */
  get listingLagMs(): number {
    return this.#listingLag;
  }

  /** @internal Consumes the pending fault of this step that matches the request, and returns what it holds. */
  take<S extends keyof Taken>(slot: S, request: FaultRequest): Taken[S] | undefined {
    const index = this.#pending.findIndex((p) => p.slot === slot && p.test(request));
    const found = this.#pending[index];
    if (found && --found.remaining <= 0) this.#pending.splice(index, 1);
    return found?.detail as Taken[S] | undefined;
  }
}

const OVERSIZED_PADDING = 9 * 1024 * 1024;

/** Settles once `signal` aborts (at once if it has). */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

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
  const headers = new Headers(response.headers);
  headers.set('content-length', String(bytes.length + (kind === 'oversized' ? OVERSIZED_PADDING : 0)));
  const chunks = kind === 'oversized' ? padded(bytes) : halfThenCut(bytes, kind, signal);
  const body = new ReadableStream<Uint8Array>({
    // Pulled, not pushed: an error raised while the first chunk is still queued would discard it.
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return new Response(body, { status: response.status, headers });
}

async function* padded(bytes: Uint8Array) {
  yield bytes;
  const spaces = new Uint8Array(64 * 1024).fill(0x20);
  for (let left = OVERSIZED_PADDING; left > 0; left -= spaces.length) {
    yield spaces.subarray(0, Math.min(spaces.length, left));
  }
}

async function* halfThenCut(bytes: Uint8Array, kind: BodyFault, signal: AbortSignal) {
  yield bytes.subarray(0, Math.floor(bytes.length / 2));
  if (kind === 'cut' && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, 1));
  else await aborted(signal);
  throw new TypeError('terminated');
}

/** A response withheld until the client gives up on the request (its signal aborts), then a cut connection. */
export async function held(request: Request): Promise<Response> {
  await aborted(request.signal);
  return Response.error();
}
