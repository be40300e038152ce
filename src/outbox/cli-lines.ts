/**
 * `payments-outbox enqueue`'s input: payouts one a line, as JSON (each line the body `enqueue` takes) or CSV (a
 * header naming the fields, then one payout a line). Each line is read into a body, or an error naming its line;
 * the bodies are then checked by `enqueue` itself, as your app's calls are.
 */

/** A payout line: its number in the input (from 1, the CSV header counted), and its body or why it has none. */
export type PayoutLine = { line: number; body: Record<string, unknown> } | { line: number; error: string };

/** The CSV columns: the body's fields, the beneficiary's by their own names (or as `beneficiary.accountName`). */
const TOP = ['amount', 'amountMinor', 'currency', 'externalReference', 'remark', 'payerNameId'];
const BENEFICIARY = ['accountName', 'accountNumber', 'bankName', 'bankCode', 'email'];

/** `csv` or `json`: as named, else by the file's extension, else by its first line (`{` is JSON). */
export function formatOf(given: string | undefined, path: string | undefined, text: string): 'csv' | 'json' {
  if (given !== undefined) {
    if (given !== 'csv' && given !== 'json') throw new Error(`--format must be csv or json, not ${given}`);
    return given;
  }
  if (path && /\.csv$/i.test(path)) return 'csv';
  if (path && /\.(jsonl|ndjson|json)$/i.test(path)) return 'json';
  return text.trimStart().startsWith('{') ? 'json' : 'csv';
}

/** The payouts in `text`, one a line; blank lines are skipped. */
export function payoutLines(text: string, format: 'csv' | 'json'): PayoutLine[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  return format === 'json' ? jsonLines(lines) : csvLines(lines);
}

function jsonLines(lines: string[]): PayoutLine[] {
  const out: PayoutLine[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    const line = i + 1;
    try {
      const body = JSON.parse(text) as unknown;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        out.push({ line, error: 'must be a JSON object: the payout as enqueue takes it' });
      } else out.push({ line, body: body as Record<string, unknown> });
    } catch (error) {
      out.push({ line, error: `is not JSON (${(error as Error).message})` });
    }
  });
  return out;
}

/** One CSV line's cells (RFC 4180, on one line: a quoted cell may hold commas and doubled quotes). */
function cells(text: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let cell = '';
      i += 1;
      for (;;) {
        if (i >= text.length) return undefined;
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i += 1;
          break;
        } else cell += text[i++];
      }
      out.push(cell);
      if (i < text.length && text[i] !== ',') return undefined;
    } else {
      const end = text.indexOf(',', i);
      out.push(text.slice(i, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end;
    }
    if (i >= text.length) return out;
    i += 1;
  }
}

function csvLines(lines: string[]): PayoutLine[] {
  const first = lines.findIndex((text) => text.trim() !== '');
  if (first < 0) return [];
  const header = cells(lines[first]!)?.map((c) => c.trim().replace(/^beneficiary\./, ''));
  const unknown = header?.filter((c) => !TOP.includes(c) && !BENEFICIARY.includes(c)) ?? [];
  if (!header || unknown.length > 0) {
    const why = header ? `unknown column ${unknown.join(', ')}` : 'an unterminated quoted cell';
    const error = `the header has ${why} (columns: ${[...TOP, ...BENEFICIARY].join(', ')})`;
    return [{ line: first + 1, error }];
  }
  const out: PayoutLine[] = [];
  for (let i = first + 1; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    const row = cells(text);
    if (!row || row.length !== header.length) {
      const why = row
        ? `${row.length} cells where the header names ${header.length}`
        : 'an unterminated quoted cell (a cell may not span lines)';
      out.push({ line: i + 1, error: `has ${why}` });
      continue;
    }
    const body: Record<string, unknown> = {};
    const beneficiary: Record<string, string> = {};
    header.forEach((column, c) => {
      const value = row[c]!;
      if (value === '') return;
      if (BENEFICIARY.includes(column)) beneficiary[column] = value;
      // A whole number of minor units as a number; anything else as written, for enqueue's check to name.
      else if (column === 'amountMinor') body[column] = /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      else body[column] = value;
    });
    body.beneficiary = beneficiary;
    out.push({ line: i + 1, body });
  }
  return out;
}
