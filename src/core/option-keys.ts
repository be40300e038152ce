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

/**
 * The known key closest to `key`: the same but for case, else within two edits, or a third of the longer
 * name's letters (`maxRetry` is three edits from `maxRetries`).
 */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    if (candidate.toLowerCase() === key.toLowerCase()) return candidate;
    const d = distance(key, candidate);
    const allowed = Math.max(2, Math.floor(Math.max(key.length, candidate.length) / 3));
    if (d <= allowed && d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** One key an option bag does not take, and the known key it is closest to. */
export interface UnknownOption {
  /** The key as given. */
  key: string;
  /** The known key it is closest to, when one is close (`maxRetries` for `maxRetry`). */
  suggestion?: string;
}

/** Every own key of `given` that `known` does not hold, each with its did-you-mean. */
export function unknownOptions(given: unknown, known: readonly string[]): UnknownOption[] {
  if (given === null || typeof given !== 'object') return [];
  return Object.keys(given)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const suggestion = closest(key, known);
      return suggestion ? { key, suggestion } : { key };
    });
}

/** `Unknown option maxRetry for PaymentsClient: did you mean maxRetries?`, or the list of several. */
export function unknownOptionMessage(bag: string, unknown: UnknownOption[]): string {
  const [only] = unknown;
  if (unknown.length === 1 && only) {
    return only.suggestion
      ? `Unknown option ${only.key} for ${bag}: did you mean ${only.suggestion}?`
      : `Unknown option ${only.key} for ${bag}`;
  }
  const keys = unknown.map((u) => (u.suggestion ? `${u.key} (did you mean ${u.suggestion}?)` : u.key));
  return `Unknown options for ${bag}: ${keys.join(', ')}`;
}
