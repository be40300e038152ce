import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { isRecord } from '../core/values.js';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, page, pageSize } from '../rules/paging.js';
import { fieldIssues } from '../rules/schema.js';
import type { Caller } from './auth.js';
import type { EnvelopeStyle, MockSettings } from './options.js';
import type { Rng } from './random.js';
import type { MockAccount, MockState, MockTransaction } from './types.js';

/** An error answer: thrown by routes, turned into the spec's error envelope by the core. */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400 `Validation failed` with one item per offending field. */
export function validationFailed(errors: FieldIssue[]): MockHttpError {
  return new MockHttpError(400, 'Validation failed', { errors });
}

/** What a route answers on success; the core wraps it in the configured envelope. */
export interface RouteResult {
  status?: number;
  message: string;
  /** Serialized as the answer is made, so a route hands out stored objects as they are, uncopied. */
  data: unknown;
  /** Key of the rows inside `data`; the legacy envelope moves them to `data.data`. */
  listKey?: string;
  /** Answer in the boolean envelope whatever the setting (POST /payouts is shown only that way). */
  booleanEnvelope?: boolean;
}

/** Everything a route handler may use. */
export interface RouteContext extends Caller {
  request: Request;
  /** The JSON object body (see `readJsonObject`). */
  body: () => Promise<Record<string, unknown>>;
  params: Record<string, string>;
  query: URLSearchParams;
  state: MockState;
  settings: MockSettings;
  rng: Rng;
  now: number;
  listingLag: number;
  /** Counts this request as a listing request (since the last `reset()`) and returns its number, from 1. */
  countListing: () => number;
  /** Starts the life `settings.lifecycle` gives a payout just stored (nothing when it is not set). */
  followPayout: (account: MockAccount, tx: MockTransaction) => void;
}

/** Answers one request of a route. */
export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

/** A route's handler, alone or with the route's switches. */
export type RouteSpec =
  | RouteHandler
  | {
      handle: RouteHandler;
      /** Money movement: refused for keys with an empty allowlist. */
      moneyMovement?: boolean;
      /** False: answered as a path the mock does not know (a route only an `invented` switch turns on). */
      enabled?: (settings: MockSettings) => boolean;
    };

/** Routes by `'METHOD /path'`, with `{name}` path parameters: `'GET /beneficiaries/{id}'`. */
export type Routes = Record<string, RouteSpec>;

/** The success envelope of `result` in `style`. */
export function successBody(result: RouteResult, style: EnvelopeStyle): Record<string, unknown> {
  let data = result.data;
  if (style === 'legacy' && result.listKey && data && typeof data === 'object') {
    const { [result.listKey]: rows, ...rest } = data as Record<string, unknown>;
    data = { data: rows, ...rest };
  }
  if (style === 'legacy' || result.booleanEnvelope) return { status: true, message: result.message, data };
  return { status: result.status ?? 200, message: result.message, success: true, data };
}

/** The error envelope: numeric `status` (boolean `false` in the legacy style) and never `success`. */
export function errorBody(error: MockHttpError, style: EnvelopeStyle): Record<string, unknown> {
  return { status: style === 'legacy' ? false : error.status, message: error.message, ...error.extra };
}

/** Reads a JSON body; an empty body is `{}`. Anything but a JSON object is a 400. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MockHttpError(400, 'Invalid JSON body');
  }
  if (!isRecord(value)) throw validationFailed([{ path: [], message: 'body must be a JSON object' }]);
  return value;
}

/** A paging parameter as the rules' schema reads it: absent when empty, a number when written as one. */
function pagingValue(query: URLSearchParams, name: string): string | number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
}

/**
 * `page` and `pageSize` checked with the spec's paging rule (`rules/paging.ts`, the SDK's too): at most `max`
 * when given (GET /transactions has 100; the other listings have none unless a test invents one). Problems
 * are added to `collect` when given (so a route can report them with its own), else thrown as a 400.
 */
export function readPaging(
  ctx: RouteContext,
  collect?: FieldIssue[],
  max = ctx.settings.invented.pageSizeLimit,
): Paging {
  const input = { page: pagingValue(ctx.query, 'page'), pageSize: pagingValue(ctx.query, 'pageSize') };
  const errors = fieldIssues(z.object({ page, pageSize: pageSize(max) }), input);
  if (collect) collect.push(...errors);
  else if (errors.length) throw validationFailed(errors);
  return { page: Number(input.page ?? DEFAULT_PAGE), pageSize: Number(input.pageSize ?? DEFAULT_PAGE_SIZE) };
}

type Paging = { page: number; pageSize: number };

/** One page of `rows` with the flat counters of the spec (`totalCount`, `page`, `pageSize`, `totalPages`). */
export function pageOf<T>(rows: T[], { page, pageSize }: Paging) {
  const start = (page - 1) * pageSize;
  const counters = { totalCount: rows.length, page, pageSize, totalPages: Math.ceil(rows.length / pageSize) };
  return { rows: rows.slice(start, start + pageSize), counters };
}

/** A flat listing: this page's rows in their response form under `listKey`, beside the counters. */
export function flatList<T>(
  ctx: RouteContext,
  message: string,
  listKey: string,
  rows: T[],
  view: (row: T) => unknown,
  paging = readPaging(ctx),
): RouteResult {
  const page = pageOf(rows, paging);
  return { message, data: { [listKey]: page.rows.map(view), ...page.counters }, listKey };
}
