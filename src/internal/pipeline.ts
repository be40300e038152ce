import {
  InternalAPIPromise as APIPromise,
  responseInfo,
  statusAndId,
  type WithResponse,
} from '../core/api-promise.js';
import { type APIError, invalid } from '../core/error.js';
import { InternalPage as Page, PagePromise } from '../core/pagination.js';
import { type Schema, validationPath } from '../rules/schema.js';
import { type CallContext, traceCall } from './channels.js';
import type { ResolvedConfig } from './config.js';
import type { Unwrapped } from './envelope.js';
import { LIST_SHAPES, type ListShape, readPage } from './list-shapes.js';
import type { LevelLogger } from './logger.js';
import { type RequestOptions, requestOptions } from './request-options.js';
import { jsonPayload, readCommitted, responseOf, shapeError, validate } from './response.js';
import { type BoundedLoad, walkByTime } from './time-walk.js';
import { type QueryValue, send, type TransportRequest, type TransportResult } from './transport.js';

/**
 * The request pipeline every method goes through: the transport sends (auth, retries, timeouts, limits) and
 * returns one `TransportResult`, then the response stage (`response.ts`) turns it into data or an error. Resources
 * describe their calls as `Call`s and `PaginateParams`; the client's `request` and `paginate` are the same two entry
 * points. The caller's request options are read here, once per call (`requestOptions`: copied and checked),
 * unless the method's own bag read them already (`payouts.create`'s), and the layers below read that copy.
 */

/** One request and what to make of its response. */
export interface Call<T> extends TransportRequest {
  /** Validates (and types) the selected value. */
  schema?: Schema<T> | undefined;
  /** Picks the value to validate out of the unwrapped response (default: the payload). */
  select?: ((response: Unwrapped) => unknown) | undefined;
  /** `text` returns the body as a string instead of unwrapping JSON. */
  responseType?: 'json' | 'text' | undefined;
  /**
   * Takes an APIError as success when an earlier attempt may have gone through: a DELETE answered "not found"
   * after a 503 was carried out by the first attempt.
   */
  doneOnRepeat?: ((error: APIError) => boolean) | undefined;
  /** Fields for the call's trace context, when it is traced (a payout's `externalReference`). */
  traced?: Partial<CallContext> | undefined;
}

/** A list through `client.paginate` (or a resource): any of the spec's list shapes, walked page by page. */
export interface PaginateParams<T> {
  path: string;
  /** The query, or a function that validates and returns it (called once, when the list is first used). */
  query?: Record<string, QueryValue> | (() => Record<string, QueryValue>);
  /** Validates (and types) each row. */
  schema?: Schema<T>;
  /**
   * The list's shape, as the spec's Pagination section names them: `flat` (counters beside the rows in `data`,
   * with or without `hasMore`), `nested` (`data.pagination`), `top-level` (`data` is the array, `pagination`
   * beside it), `array` (an unpaginated full array) or `csv` (each page's body is the CSV text, one string per
   * page, with `X-Total-Count` and `X-Total-Pages` headers). A response not in the named shape is a
   * `ResponseValidationError`. Without `shape` the shape is detected from each response.
   */
  shape?: ListShape;
  /** Key of the rows inside `data` (e.g. `transactions`); found automatically when the payload has one array. */
  rowsKey?: string;
  options?: RequestOptions;
}

/** Sends requests for one client configuration. Shared by the client and its resources; not public. */
export class Pipeline {
  readonly #config: ResolvedConfig;
  /** The client's logger, for resources that warn once (deprecations). */
  readonly logger: LevelLogger;
  /** Currencies whose listed payout reference the service assigns (NGN always), learned ones too. */
  readonly serviceAssigned: ResolvedConfig['serviceAssigned'];
  /** The client's `walletReferenceQuery`, if any. */
  readonly walletReferenceQuery: ResolvedConfig['walletReferenceQuery'];
  /** The client's payout ceilings (`payoutLimits`), for the payouts resource to check a body against. */
  readonly payoutLimits: ResolvedConfig['payoutLimits'];
  /** The client's `verifyBeneficiary`: whether payout calls check their beneficiary when they do not say. */
  readonly verifyBeneficiary: boolean;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    this.logger = config.logger;
    this.serviceAssigned = config.serviceAssigned;
    this.walletReferenceQuery = config.walletReferenceQuery;
    this.payoutLimits = config.payoutLimits;
    this.verifyBeneficiary = config.verifyBeneficiary;
    // Which of zod's parsers checks responses here, and why: the runtime matrix reads this line to show it.
    if (this.logger.enabled('debug')) {
      const { compiled, why } = validationPath();
      this.logger.log(
        'debug',
        `responses validated by zod's ${compiled ? 'compiled' : 'interpreted'} parsers: ${why}`,
      );
    }
  }

  /**
   * One request; `await` it for the data, `.withResponse()` for the response too. Given a function, the call is
   * built inside the promise, so input that fails validation there rejects it before anything is sent.
   */
  call<T>(call: Call<T> | (() => Call<T> | Promise<Call<T>>), operation?: string): APIPromise<T> {
    const run = async (context?: CallContext) =>
      this.#call(typeof call === 'function' ? await call() : call, context);
    return new APIPromise(operation ? () => traceCall(operation, run) : run);
  }

  async #call<T>(call: Call<T>, context?: CallContext): Promise<WithResponse<T>> {
    if (context && call.traced) Object.assign(context, call.traced);
    const given = call.options;
    // The bag's name is built only for a call that has options: most have none.
    const options =
      given === undefined
        ? undefined
        : requestOptions.read(given, `request options (${call.method} ${call.path})`);
    const result = await this.#send({ ...call, options }, context);
    const response = responseOf(result, call.doneOnRepeat);
    const info = responseInfo(response);
    if (call.responseType === 'text') return { data: response.text as T, response: info };
    const data = readCommitted(result, response, () => {
      const unwrapped = jsonPayload(response);
      const selected = call.select ? call.select(unwrapped) : unwrapped.payload;
      return call.schema ? validate(call.schema, selected, response) : (selected as T);
    });
    return { data, response: info };
  }

  /**
   * A list walked page by page; see `PagePromise`. `byTime`: a newest-first listing with `startDate`/`endDate`
   * (GET /transactions), walked by time unless the caller asked for a page number (see `time-walk.ts`).
   * `readOptions`: how the list's options are read, when the method's own bag takes more than request options.
   */
  list<T>(
    list: PaginateParams<T>,
    operation = 'paginate',
    byTime = false,
    readOptions = () => requestOptions.read(list.options, `request options (GET ${list.path})`),
  ): PagePromise<T> {
    // Resolved on first use, so invalid input rejects the PagePromise like any other failure.
    let query: Record<string, QueryValue> | undefined;
    let options: RequestOptions | undefined;
    const load = (page: number): Promise<Page<T>> => traceCall(operation, (c) => read(page, c), { page });
    /** Page `page` of the query with other bounds, for the walk by time. */
    const bounded: BoundedLoad<T> = ({ page = 1, ...bounds }) =>
      traceCall(operation, (c) => read(page, c, bounds), { page });
    const walk = (first: Page<T>, maxPages: number) => {
      const end = query?.endDate;
      return walkByTime(first, bounded, { end: typeof end === 'string' ? end : undefined, maxPages });
    };
    const read = async (
      page: number,
      context: CallContext | undefined,
      bounds?: Record<string, QueryValue>,
    ): Promise<Page<T>> => {
      const asked = bounds ? { ...query, ...bounds } : query;
      const pageQuery = page === 1 && !(query && Object.hasOwn(query, 'page')) ? asked : { ...asked, page };
      const result = await this.#send({ method: 'GET', path: list.path, query: pageQuery, options }, context);
      const response = responseOf(result);
      const requested = { page, pageSize: typeof asked?.pageSize === 'number' ? asked.pageSize : undefined };
      const csv = list.shape === 'csv';
      const unwrapped = csv ? undefined : jsonPayload(response);
      const info = readPage(list.shape, { ...response, unwrapped, requested, rowsKey: list.rowsKey });
      if (typeof info === 'string') throw shapeError(response, info);
      const schema = csv ? undefined : list.schema;
      const rows = schema
        ? info.rows.map((row, i) => validate(schema, row, response, [String(i)]))
        : (info.rows as T[]);
      // Asked for a page number: the caller walks by page number, as asked.
      const byPage = !byTime || (query !== undefined && Object.hasOwn(query, 'page'));
      return new Page<T>({ ...info, rows }, load, responseInfo(response), byPage ? undefined : walk);
    };
    return new PagePromise(
      async () => {
        // A typo in `shape` must not fall back to detection.
        if (list.shape !== undefined && !(LIST_SHAPES as readonly unknown[]).includes(list.shape)) {
          throw invalid(['shape'], `must be one of: ${LIST_SHAPES.join(', ')}`);
        }
        options = readOptions();
        query = typeof list.query === 'function' ? list.query() : list.query;
        return load(query && Object.hasOwn(query, 'page') && typeof query.page === 'number' ? query.page : 1);
      },
      () => options?.maxPages ?? Number.POSITIVE_INFINITY,
    );
  }

  async #send(request: TransportRequest, context?: CallContext): Promise<TransportResult> {
    const result = await send(this.#config, request);
    // The call's span records its final answer, whatever its status, before the response stage reads it.
    if (context && result.kind === 'response') Object.assign(context, statusAndId(result.response));
    return result;
  }
}
