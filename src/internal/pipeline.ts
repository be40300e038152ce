import { APIPromise, responseInfo, type WithResponse } from '../core/api-promise.js';
import { RequestValidationError } from '../core/error.js';
import { Page, PagePromise } from '../core/pagination.js';
import type { TransportResponse } from './body.js';
import { type CallContext, noteResponse, traceCall } from './channels.js';
import { callLimits, type RequestOptions, type ResolvedConfig } from './config.js';
import type { Unwrapped } from './envelope.js';
import { isListShape, LIST_SHAPES, type ListShape, readPage } from './list-shapes.js';
import type { LevelLogger } from './logger.js';
import { ownData } from './own.js';
import { assertSucceeded, jsonPayload, readCommitted, shapeError, validate } from './response.js';
import { isSafeToRepeat } from './retry.js';
import type { Schema } from './schema.js';
import { type HttpMethod, type QueryValue, send, type TransportRequest } from './transport.js';

/**
 * The request pipeline every method goes through: the transport sends (auth, retries, timeouts, limits), then
 * the response stage (`response.ts`) checks for failure, unwraps, and validates. Resources describe their
 * calls as `Call`s and `ListCall`s; the client's `request` and `paginate` are the same two entry points.
 */

/** One request and what to make of its response. */
export interface Call<T> {
  method: HttpMethod;
  path: string;
  /** `path` with its ids as names (`/payer-names/{payerNameId}`); see `route` in `path.ts`. */
  template?: string | undefined;
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /** A streamed body (multipart); sent once, never retried. */
  stream?: TransportRequest['body'];
  /** Validates (and types) the selected value. */
  schema?: Schema<T> | undefined;
  /** Picks the value to validate out of the unwrapped response (default: the payload). */
  select?: ((response: Unwrapped) => unknown) | undefined;
  /** `text` returns the body as a string instead of unwrapping JSON. */
  responseType?: 'json' | 'text' | undefined;
  /** Marks a POST as safe to repeat (POST /lookup). */
  idempotent?: boolean | undefined;
  options?: RequestOptions | undefined;
}

/** A list and the shape the spec gives it. */
export interface ListCall<T> {
  path: string;
  /** The query, or a function that validates and returns it (called once, when the list is first used). */
  query?: Record<string, QueryValue> | (() => Record<string, QueryValue>) | undefined;
  /** Validates (and types) each row. */
  schema?: Schema<T> | undefined;
  /** The list's shape; without one it is detected from the first response. */
  shape?: ListShape | undefined;
  /** Key of the rows inside `data` (e.g. `transactions`). */
  rowsKey?: string | undefined;
  options?: RequestOptions | undefined;
}

/** Sends requests for one client configuration. Shared by the client and its resources; not public. */
export class Pipeline {
  readonly #config: ResolvedConfig;

  constructor(config: ResolvedConfig) {
    this.#config = config;
  }

  /** Retries allowed for a call with `options` (the call's own, else the client's). */
  maxRetries(options: RequestOptions | undefined): number {
    return callLimits(ownData(options), this.#config).maxRetries;
  }

  /** The client's logger, for resources that warn once (deprecations). */
  get logger(): LevelLogger {
    return this.#config.logger;
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
    const response = await this.#send(call, context);
    const info = responseInfo(response);
    if (call.responseType === 'text') return { data: response.text as T, response: info };
    const commits = !isSafeToRepeat(call.method, call.idempotent);
    const data = readCommitted(response, `${call.method} ${call.path}`, commits, () => {
      const unwrapped = jsonPayload(response);
      const selected = call.select ? call.select(unwrapped) : unwrapped.payload;
      return call.schema ? validate(call.schema, selected, response) : (selected as T);
    });
    return { data, response: info };
  }

  /** A list walked page by page; see `PagePromise`. */
  list<T>(list: ListCall<T>, operation = 'paginate'): PagePromise<T> {
    // Resolved on first use, so invalid input rejects the PagePromise like any other failure.
    let query: Record<string, QueryValue> | undefined;
    const load = (page: number): Promise<Page<T>> => traceCall(operation, (c) => read(page, c), { page });
    const read = async (page: number, context: CallContext | undefined): Promise<Page<T>> => {
      const pageQuery = page === 1 && !(query && Object.hasOwn(query, 'page')) ? query : { ...query, page };
      const response = await this.#send(
        {
          method: 'GET',
          path: list.path,
          query: pageQuery,
          options: list.options,
        },
        context,
      );
      const requested = { page, pageSize: typeof query?.pageSize === 'number' ? query.pageSize : undefined };
      const csv = list.shape === 'csv';
      const info = readPage(list.shape, {
        unwrapped: csv ? undefined : jsonPayload(response),
        headers: response.headers,
        text: response.text,
        requested,
        rowsKey: list.rowsKey,
      });
      if (typeof info === 'string') throw shapeError(response, info);
      const schema = csv ? undefined : list.schema;
      const rows = schema
        ? info.rows.map((row, i) => validate(schema, row, response, [String(i)]))
        : (info.rows as T[]);
      return new Page<T>(info, rows, load, responseInfo(response));
    };
    const maxPages = ownData(list.options)?.maxPages;
    return new PagePromise(async () => {
      if (list.shape !== undefined && !isListShape(list.shape)) {
        throw new RequestValidationError([
          { path: ['shape'], message: `must be one of: ${LIST_SHAPES.join(', ')}` },
        ]);
      }
      if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1)) {
        throw new RequestValidationError([
          { path: ['maxPages'], message: 'must be a whole number of at least 1' },
        ]);
      }
      query = typeof list.query === 'function' ? list.query() : list.query;
      return load(query && Object.hasOwn(query, 'page') && typeof query.page === 'number' ? query.page : 1);
    }, maxPages);
  }

  async #send(
    call: Omit<Call<unknown>, 'schema' | 'select'>,
    context?: CallContext,
  ): Promise<TransportResponse> {
    const response = await send(this.#config, {
      method: call.method,
      path: call.path,
      template: call.template,
      query: call.query,
      json: call.body,
      body: call.stream,
      idempotent: call.idempotent,
      options: call.options,
    });
    noteResponse(context, response);
    assertSucceeded(response);
    return response;
  }
}
