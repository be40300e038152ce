/**
 * What the server trims off a value, at either end: white space (every Unicode space, the no-break space U+00A0,
 * line and paragraph separators, NEL U+0085, the byte-order mark U+FEFF: JavaScript's `\s` and NEL) and the
 * invisible formatting characters copy and paste brings (zero-width spaces and joiners, direction marks and
 * embeddings, the word joiner). Written without `\p{}` so that the same class serves as a JSON Schema pattern.
 */
export const EDGE = '[\\s\\u0085\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069]';

const EDGES = new RegExp(`^${EDGE}+|${EDGE}+$`, 'g');

/** A value as the server checks, records and sends it: without `EDGE` characters at either end. */
export const trimmed = (text: string): string => text.replace(EDGES, '');

/**
 * Every string in a value (objects and arrays walked) trimmed, except under the keys named in `exact`: the one
 * place a call's arguments are trimmed, so that what a guard approves is what is recorded and sent.
 */
export function trimmedStrings<T>(value: T, exact: readonly string[] = []): T {
  if (typeof value === 'string') return trimmed(value) as T;
  if (Array.isArray(value)) return value.map((v) => trimmedStrings(v, exact)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, exact.includes(key) ? v : trimmedStrings(v, exact)]),
  ) as T;
}

/** Edits (a letter added, left out, changed, or two neighbours swapped) from `a` to `b`, case aside. */
function distance(a: string, b: string): number {
  const [x, y] = [a.toUpperCase(), b.toUpperCase()];
  const d = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[x.length]![y.length]!;
}

/** The candidate `word` is most likely a slip of (at most `most` edits away, case aside), for a did-you-mean. */
export function nearest(word: string, candidates: Iterable<string>, most: number): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const name of candidates) {
    const edits = distance(word, name);
    if (edits <= most && (best === undefined || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}
