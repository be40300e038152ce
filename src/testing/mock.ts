import { isCalendarDate } from '../rules/dates.js';
import { authenticate } from './auth.js';
import { kycControls, payerNameControls } from './controls.js';
import { Faults, faultError, held, partialBody } from './faults.js';
import { errorBody, MockHttpError, readJsonObject, successBody } from './http.js';
import { TransactionLife, type TransactionObserver } from './lifecycle.js';
import { createHandlers, type MockHandlers } from './msw.js';
import { readMockOptions } from './option-bags.js';
import type { MockSettings, PaymentsMockOptions } from './options.js';
import { Rng } from './random.js';
import { matchRoute } from './router.js';
import { createState, settingsFrom } from './state.js';
import { type MockTransactions, transactionControls } from './transactions.js';
import type { MockAccount, MockState } from './types.js';

/** Default base URL of the mock. */
export const DEFAULT_MOCK_BASE_URL = 'https://payments.mock/api/v1/external';

/** Per-request facts that are not in the `Request`: the client IP (the loopback server passes the socket's). */
export interface HandleContext {
  clientIp?: string;
}

/** A stateful, deterministic, in-process Payments Service. Create with `createPaymentsMock`. */
export class PaymentsMock {
  /** Base URL the handlers answer on, ending in the API prefix. */
  readonly baseUrl: string;
  /** The API prefix path, e.g. `/api/v1/external`. */
  readonly basePath: string;
  /** The origin the MSW handlers answer on. */
  readonly origin: string;
  /** Behaviour switches; change them at any time. `reset()` restores the options. */
  readonly settings: MockSettings;
  /** Failure injection. */
  readonly faults = new Faults();
  /**
   * A `fetch` answered by this mock in-process: pass it as the client's `fetch` option, and a test needs
   * neither MSW nor a socket. A dropped connection rejects as fetch does (`TypeError: fetch failed`), an
   * abort with the signal's reason.
   */
  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await this.handle(request);
    if (request.signal.aborted) throw request.signal.reason;
    if (response.type === 'error') throw new TypeError('fetch failed');
    return response;
  };
  /** Review decisions a real reviewer would take. */
  readonly payerNames = payerNameControls(this);
  /** The account holder's side of a KYC link. */
  readonly kyc = kycControls(this);
  /** Stored transactions made and moved by a test: `add`, `get`, `setStatus`, `assignUetr`. */
  readonly transactions: MockTransactions;

  readonly #options: PaymentsMockOptions;
  #state!: MockState;
  #rng!: Rng;
  #hits: number[] = [];
  #requests = 0;
  #listings = 0;
  readonly #life: TransactionLife;
  #handlers: MockHandlers | undefined;

  constructor(given: PaymentsMockOptions = {}) {
    const options = readMockOptions(given, 'createPaymentsMock');
    this.#options = options;
    const url = new URL(options.baseUrl ?? DEFAULT_MOCK_BASE_URL);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '') || '/api/v1/external';
    this.baseUrl = `${url.origin}${this.basePath}`;
    this.settings = settingsFrom(options);
    this.#life = new TransactionLife({
      settings: this.settings,
      now: () => this.now(),
      seed: options.seed ?? 1,
    });
    this.transactions = transactionControls(this, () => this.#rng, this.#life);
    this.reset();
  }

  /**
   * MSW request handlers (`setupServer(...mock.handlers)` or `setupWorker(...)`). The only part of the mock that
   * needs msw (2 or 3); reading it without msw installed throws an error that says so.
   */
  get handlers(): MockHandlers {
    this.#handlers ??= createHandlers(this);
    return this.#handlers;
  }

  /** Everything the mock holds; inspect or edit it in tests. */
  get state(): MockState {
    return this.#state;
  }

  /**
   * The service's clock, in epoch ms: `Date.now()` plus `settings.clockOffsetMs` (positive: the service is
   * ahead of the client). Every timestamp the mock writes and every `Date` header it sends reads it, so fake
   * timers drive it and an offset skews it against the client's own clock.
   */
  now(): number {
    return Date.now() + this.settings.clockOffsetMs;
  }

  /** An account's state (default: the main account). Throws for an unknown id. */
  account(id: string = this.#state.mainAccountId): MockAccount {
    const account = this.#state.accounts.get(id.toLowerCase());
    if (!account) throw new Error(`no account ${id} in the mock`);
    return account;
  }

  /**
   * Calls `observer` with a copy of a transaction's row, in its current listing form, each time its status
   * moves or its UETR is assigned (`mock.transactions.setStatus`, `assignUetr`, or `settings.lifecycle`):
   * what the service's webhooks would report, without inventing their payload. Returns the function that
   * removes it; `reset()` removes every observer.
   */
  onTransactionChange(observer: TransactionObserver): () => void {
    return this.#life.observe(observer);
  }

  /** Back to the seeded state: same data, settings from the options, no faults, no schedule, no observers. */
  reset(): void {
    this.#life.stop();
    // Settings first: the seeded history ends at the service's clock, which reads the offset.
    Object.assign(this.settings, settingsFrom(this.#options));
    this.#rng = new Rng(this.#options.seed ?? 1);
    this.#state = createState(this.#rng, this.#options, this.now());
    this.faults.clear();
    this.#hits = [];
    this.#requests = 0;
    this.#listings = 0;
  }

  /**
   * Answers one request: the core both MSW and the loopback server call. Routes by path under the base
   * path (any origin). A dropped connection comes back as `Response.error()`.
   */
  async handle(request: Request, context: HandleContext = {}): Promise<Response> {
    const response = await this.#respond(request, context);
    const delay = this.faults.latencyMs;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return response;
  }

  async #respond(request: Request, context: HandleContext): Promise<Response> {
    const requestId = `req_mock_${String(++this.#requests).padStart(6, '0')}`;
    const style = this.settings.envelope;
    // Every answer, a fault's too, carries the service's time: a client measures its clock's skew by it.
    const headers = (more?: Record<string, string>) => ({
      date: new Date(this.now()).toUTCString(),
      'x-request-id': requestId,
      ...more,
    });
    const fail = (error: MockHttpError, body?: unknown) =>
      Response.json(body ?? errorBody(error, style), {
        status: error.status,
        headers: headers(error.headers),
      });
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    if (url.pathname !== this.basePath && !url.pathname.startsWith(`${this.basePath}/`)) {
      return fail(this.#rateLimited() ?? new MockHttpError(404, 'Not found'));
    }
    const path = url.pathname.slice(this.basePath.length).replace(/\/+$/, '') || '/';
    const seen = { method, path, query: url.searchParams };
    if (this.faults.take('hang:before', seen)) return held(request);
    const fault = this.faults.take('next', seen);
    if (fault) return fail(faultError(fault), fault.body);
    const limited = this.#rateLimited();
    if (limited) return fail(limited);
    const matched = matchRoute(method, path);
    if (!matched || matched.enabled?.(this.settings) === false) {
      return fail(new MockHttpError(404, 'Not found'));
    }
    const pageFault = continuesWalk(url.searchParams) ? this.faults.take('page', seen) : undefined;
    // A cache in front that ignores the query answers the walk's first page whatever was asked.
    if (pageFault === 'repeat') for (const name of ['page', 'endDate']) url.searchParams.delete(name);
    let response: Response;
    try {
      const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
      const clientIp = context.clientIp ?? (forwarded || '127.0.0.1');
      const caller = authenticate(request.headers, this.#state, clientIp, matched.moneyMovement ?? false);
      const result = await matched.handle({
        request,
        body: () => readJsonObject(request),
        params: matched.params,
        query: url.searchParams,
        ...caller,
        state: this.#state,
        settings: this.settings,
        rng: this.#rng,
        now: this.now(),
        listingLag: this.faults.listingLagMs,
        countListing: () => ++this.#listings,
        followPayout: (account, tx) => this.#life.follow({ account, tx }),
      });
      if (pageFault === 'empty' && result.listKey) {
        (result.data as Record<string, unknown>)[result.listKey] = [];
      }
      response = Response.json(successBody(result, style), {
        status: result.status ?? 200,
        headers: headers(),
      });
    } catch (error) {
      if (!(error instanceof MockHttpError)) throw error;
      response = fail(error);
    }
    // Checked after the handler ran: the request is committed, only its answer is lost.
    if (this.faults.take('hang:after', seen)) return held(request);
    if (this.faults.take('drop', seen)) return Response.error();
    const after = this.faults.take('answer:after', seen);
    if (after) return fail(faultError(after), after.body);
    const bodyFault = this.faults.take('body', seen);
    return bodyFault ? await partialBody(response, bodyFault, request.signal) : response;
  }

  #rateLimited(): MockHttpError | undefined {
    const limit = this.settings.rateLimit;
    if (!limit) return undefined;
    const now = this.now();
    this.#hits = this.#hits.filter((t) => t > now - limit.perMs);
    if (this.#hits.length < limit.requests) {
      this.#hits.push(now);
      return undefined;
    }
    const wait = Math.max(1, Math.ceil((this.#hits[0]! + limit.perMs - now) / 1000));
    return new MockHttpError(429, 'Too many requests', {}, { 'retry-after': String(wait) });
  }
}

/**
 * A listing request that continues a walk: a page after the first (by offset), or a query ending at a full
 * timestamp (by time: the last row's `created_at`). A calendar-day `endDate`, as a lookup's first query sends
 * to bound its window, starts a walk rather than continuing one.
 */
function continuesWalk(query: URLSearchParams): boolean {
  const endDate = query.get('endDate')?.trim();
  return Number(query.get('page')) > 1 || (!!endDate && !isCalendarDate(endDate));
}

/** Creates a mock Payments Service; see `PaymentsMockOptions`. */
export function createPaymentsMock(options: PaymentsMockOptions = {}): PaymentsMock {
  return new PaymentsMock(options);
}
