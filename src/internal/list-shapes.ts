import type { PageInfo } from '../core/pagination.js';
import { isRecord } from '../core/values.js';
import { onlyArray, pickList, type Unwrapped } from './envelope.js';

/**
 * The list shapes the spec's Pagination section states, one reader each, and each with its own next-page rule:
 *
 *   flat       rows beside `totalCount`, `page`, `pageSize`, `totalPages` (and `hasMore` on some) in `data`
 *   nested     rows beside `data.pagination` { page, pageSize, total, totalPages }
 *   top-level  `data` is the array and `pagination` sits beside it at the top level
 *   array      an unpaginated full array: one page, the last
 *   csv        the body is the file; paging in the `X-Total-Count` and `X-Total-Pages` headers
 *
 * A reader returns the page's numbers, or the reason the response does not have its shape (which the response
 * stage turns into a ResponseValidationError). Only `detect` guesses, and only when the caller named no shape.
 */
export const LIST_SHAPES = ['flat', 'nested', 'top-level', 'array', 'csv'] as const;
/** One of the list shapes the spec states. */
export type ListShape = (typeof LIST_SHAPES)[number];

/** What a reader gets: the response as read, and the page and size that were asked for. */
export interface ListResponse {
  unwrapped: Unwrapped | undefined;
  headers: Headers;
  text: string;
  requested: { page: number; pageSize: number | undefined };
  rowsKey: string | undefined;
}

/** `guess`: the shape was detected, not named (only `flat` reads it: see `readPage`). */
type Reader = (response: ListResponse, guess?: boolean) => PageInfo | string;

function num(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function rowsIn(payload: unknown, rowsKey: string | undefined): unknown[] | undefined {
  const rows = pickList(payload, rowsKey ?? 'data');
  if (Array.isArray(rows)) return rows;
  // The escape hatch may not know the key: the payload's one array is the list.
  return rowsKey === undefined && isRecord(payload) ? onlyArray(payload) : undefined;
}

/**
 * The one next-page rule of the counted shapes: the walk goes on while `hasMore` or `page` against `totalPages`
 * says a page follows, and the end is declared only when neither does. A server whose two signals disagree is
 * read the cautious way (the spec iterates on `totalPages`; `hasMore: false` beside more pages is not an end),
 * since a payout search that stopped early would take absence for proof. An empty page has no successor.
 */
function counted(
  rows: unknown[],
  meta: Record<string, unknown>,
  requested: ListResponse['requested'],
  guess = false,
): PageInfo | string {
  const page = num(meta.page) ?? requested.page;
  const pageSize = num(meta.pageSize) ?? requested.pageSize ?? rows.length;
  const totalCount = num(meta.totalCount) ?? num(meta.total);
  const totalPages =
    num(meta.totalPages) ??
    (totalCount !== undefined && pageSize > 0 ? Math.ceil(totalCount / pageSize) : undefined);
  const flag = typeof meta.hasMore === 'boolean' ? meta.hasMore : undefined;
  const uncounted = totalPages === undefined && flag === undefined;
  if (uncounted && !guess) return 'no totalPages, totalCount or hasMore';
  const morePages = totalPages !== undefined && page < totalPages;
  // Guessing (a detected list with `page` but no totals): a full page suggests more; never a declared end.
  const hasMore = rows.length > 0 && (flag === true || morePages || (uncounted && rows.length >= pageSize));
  return {
    rows,
    page,
    pageSize,
    totalCount,
    totalPages: totalPages ?? (hasMore ? page + 1 : page),
    hasMore,
    isLastPage: !uncounted && flag !== true && !morePages,
  };
}

const where = (rowsKey: string | undefined) => (rowsKey ? ` at "${rowsKey}"` : '');

const flat: Reader = ({ unwrapped, requested, rowsKey }, guess) => {
  const payload = unwrapped?.payload;
  const rows = rowsIn(payload, rowsKey);
  if (!rows || !isRecord(payload)) return `no list with flat counters${where(rowsKey)}`;
  return counted(rows, payload, requested, guess);
};

const nested: Reader = ({ unwrapped, requested, rowsKey }) => {
  const payload = unwrapped?.payload;
  const { pagination, ...rest } = isRecord(payload) ? payload : {};
  const rows = rowsIn(isRecord(payload) ? rest : undefined, rowsKey);
  if (!rows || !isRecord(pagination)) return `no list beside data.pagination${where(rowsKey)}`;
  return counted(rows, pagination, requested);
};

const topLevel: Reader = ({ unwrapped, requested }) => {
  const pagination = unwrapped?.root?.pagination;
  if (!Array.isArray(unwrapped?.payload) || !isRecord(pagination))
    return 'no data array with pagination beside it';
  return counted(unwrapped.payload, pagination, requested);
};

const array: Reader = ({ unwrapped, requested, rowsKey }) => {
  const rows = rowsIn(unwrapped?.payload, rowsKey);
  // The whole list in one response: the first page is the last.
  return rows
    ? counted(rows, { page: 1, totalPages: 1, totalCount: rows.length }, requested)
    : `no list found${where(rowsKey)}`;
};

const csv: Reader = ({ headers, text, requested }) => {
  const totalCount = num(headers.get('x-total-count'));
  const totalPages = num(headers.get('x-total-pages'));
  if (totalPages === undefined) return 'no X-Total-Pages header on the CSV export';
  // The text as sent: a CSV body of `123`, or an empty one, must not come back parsed as JSON.
  const pageSize = requested.pageSize ?? totalCount ?? 0;
  return counted(text ? [text] : [], { totalCount, totalPages, pageSize }, requested);
};

const READERS: Record<ListShape, Reader> = { flat, nested, 'top-level': topLevel, array, csv };

/** The shape of a JSON list page whose shape nobody named: only `client.paginate` without `shape` asks. */
function detect({ unwrapped }: ListResponse): ListShape {
  const payload = unwrapped?.payload;
  if (Array.isArray(payload)) return isRecord(unwrapped?.root?.pagination) ? 'top-level' : 'array';
  if (!isRecord(payload)) return 'array';
  if (isRecord(payload.pagination)) return 'nested';
  const counters = ['page', 'totalPages', 'totalCount', 'hasMore'].some((k) => Object.hasOwn(payload, k));
  return counters ? 'flat' : 'array';
}

/**
 * Reads one page in the named shape, or in the detected one. A detected flat page with `page` but no totals
 * (a server the spec does not describe) takes a full page as a sign of more, so such a list is still walked.
 */
export function readPage(shape: ListShape | undefined, response: ListResponse): PageInfo | string {
  return shape ? READERS[shape](response) : READERS[detect(response)](response, true);
}
