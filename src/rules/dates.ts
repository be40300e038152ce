import * as z from 'zod/mini';

/**
 * Dates as the spec states them. GET /transactions takes `startDate`/`endDate` as "YYYY-MM-DD or full ISO 8601
 * timestamp": full means date, hours, minutes and seconds (a fraction allowed) and an offset (`Z` or `±hh:mm`).
 * `2026-11-01T10:00Z` (no seconds) and `2026-11-01T10:00:00` (no offset, so no instant) are not full.
 */
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const FULL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** A real day written YYYY-MM-DD: `2026-02-30` has the shape but is no day. */
export function isCalendarDate(value: string): boolean {
  const m = CALENDAR_DATE.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** A full ISO 8601 timestamp (seconds and offset) naming a real instant on a real day. */
export function isFullTimestamp(value: string): boolean {
  return FULL_TIMESTAMP.test(value) && isCalendarDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

/** A transactions date filter: a calendar date, or a full ISO 8601 timestamp. */
function isDateFilter(value: string): boolean {
  return isCalendarDate(value) || isFullTimestamp(value);
}

/** A date filter: `YYYY-MM-DD`, a full ISO 8601 timestamp (seconds and offset), or a `Date` (sent as its ISO string). */
export const dateFilter = z.pipe(
  z.union([
    z
      .string()
      .check(
        z.refine(isDateFilter, 'must be YYYY-MM-DD or a full ISO 8601 timestamp with seconds and offset'),
      ),
    // A real instant: an Invalid Date is refused. (zod's `z.date` checks the same, with 90 B more per bundle.)
    z.custom<Date>((value) => value instanceof Date && !Number.isNaN(value.getTime())),
  ]),
  z.transform((value) => (value instanceof Date ? value.toISOString() : value)),
);

/**
 * The latest instant a printed `created_at` can stand for. The service may store a finer time than it prints
 * (`…:05Z` for a row stored at `…:05.700`) and filter on what it stores; ending the next query at the printed
 * value would drop the rows of that second older than the row, so the fraction is filled with 9s to the
 * nanosecond. A walk by time skips rows read again by `id`.
 */
export function latestInstant(printed: string): string {
  return printed.replace(
    /(T\d{2}:\d{2}:\d{2})(?:\.(\d+))?/i,
    (_, time: string, fraction = '') => `${time}.${fraction.padEnd(9, '9')}`,
  );
}

/**
 * The instant one nanosecond before the earliest a printed full timestamp can stand for (`…:05.120Z` stands
 * for `…:05.120000000` to `…:05.120999999`), in UTC: where a walk by time goes on once every row of an instant
 * has been read.
 */
export function justBefore(printed: string): string {
  const m = /^(.+T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i.exec(printed);
  if (!m) throw new TypeError(`not a full timestamp: ${printed}`);
  const nanos =
    BigInt(Date.parse(`${m[1]}${m[3]}`)) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0').slice(0, 9)) - 1n;
  const second = nanos / 1_000_000_000n - (nanos < 0n && nanos % 1_000_000_000n !== 0n ? 1n : 0n);
  const fraction = nanos - second * 1_000_000_000n;
  return `${new Date(Number(second) * 1000).toISOString().slice(0, 19)}.${String(fraction).padStart(9, '0')}Z`;
}
