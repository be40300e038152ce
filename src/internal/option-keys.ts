import { RequestValidationError } from '../core/error.js';

/**
 * Option bags refuse keys they do not know. From JavaScript (or through a cast) a typo such as
 * `{ lookupfirst: true }` would otherwise be ignored in silence, and on the restart path that typo is a second
 * payout. Each bag's keys are listed once, beside its interface, through `optionKeys<T>()`, which fails to
 * compile unless the list holds every key of the interface and nothing else: the type and the runtime check
 * cannot drift apart.
 */

/** The keys a list names: each entry one key, or several separated by spaces (`'timeout totalTimeout'`). */
type Words<S extends string> = S extends `${infer Head} ${infer Rest}` ? Head | Words<Rest> : S;

/** `unknown` when `U` is empty; else a type error that names `U` under `label`. */
type None<U, Label extends string> = [U] extends [never] ? unknown : Record<Label, U>;

/**
 * The key list of an option bag, checked against its interface at compile time:
 * `optionKeys<RequestOptions>()(['signal timeout', ...])`. A key missing from the list, or a word that is not a
 * key, is a type error.
 */
export function optionKeys<T>() {
  return <const K extends readonly string[]>(
    keys: K &
      None<Exclude<keyof T & string, Words<K[number]>>, 'missing'> &
      None<Exclude<Words<K[number]>, keyof T>, 'notAKey'>,
  ): Words<K[number]>[] => keys.flatMap((words) => words.split(' ')) as Words<K[number]>[];
}

/** Edit distance, for the did-you-mean; keys are short, so the quadratic table costs nothing. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The known key closest to `key`: the same but for case, else within two edits. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    if (candidate.toLowerCase() === key.toLowerCase()) return candidate;
    const d = distance(key, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/**
 * Throws a `RequestValidationError` naming every own key of `bag` that `known` does not hold, with a
 * did-you-mean where one is close. `prefix` places the bag in a larger one (e.g. `['options']`).
 */
export function refuseUnknownKeys(bag: unknown, known: readonly string[], prefix: string[] = []): void {
  if (bag === null || typeof bag !== 'object') return;
  const issues = Object.keys(bag)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = closest(key, known);
      const hint = near ? `; did you mean \`${near}\`?` : '';
      return { path: [...prefix, key], message: `unknown option \`${key}\`${hint}` };
    });
  if (issues.length > 0) throw new RequestValidationError(issues);
}
