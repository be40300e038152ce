import * as z from 'zod/mini';
import { compiler } from '#compiler';
import { type FieldIssue, RequestValidationError } from '../core/error.js';
import { isPlainObject, ownData } from '../core/own.js';

/** Any zod (classic or mini) schema: both implement the same core contract. */
export type Schema<T> = z.core.$ZodType<T>;

/**
 * `z.looseObject`, typed by the shape itself. zod types its result by `Writeable<shape>`, a mapped type the
 * declaration emitter prints as a new type literal without the shape's doc comments, so the notes on response
 * fields never reached the published `.d.ts`. Typed by the shape, the emitter prints the shape's own literal,
 * comments included, and `z.infer` carries them to every field a caller hovers.
 */
export function looseObject<S extends z.core.$ZodLooseShape>(shape: S): z.ZodMiniObject<S, z.core.$loose> {
  return z.looseObject(shape);
}

/** `z.strictObject`, typed by the shape for the same reason: a params type read as its `z.input` keeps the docs. */
export function strictObject<S extends z.core.$ZodLooseShape>(
  shape: S,
  params?: string,
): z.ZodMiniObject<S, z.core.$strict> {
  return z.strictObject(shape, params);
}

/** `z.object` (unknown keys left out), typed by the shape for the same reason. */
export function object<S extends z.core.$ZodLooseShape>(shape: S): z.ZodMiniObject<S, z.core.$strip> {
  return z.object(shape);
}

/**
 * An enum the service may extend: the known values are offered by autocompletion and any other string is
 * still accepted, so a new status on the server does not break a deployed client.
 */
export function openEnum<const T extends readonly string[]>(_values: T) {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {}), T[number] | (string & {})>;
}

/**
 * An object of `value`s under any string keys, as `z.record(z.string(), value)` checks it: a class instance (a
 * Map, a Date) is refused, `__proto__` is dropped. Written as an object with a catchall because the SDK already
 * carries zod's object code, and z.record's own added 620 B to every gzipped bundle. The instance check comes
 * first: a check on the object itself would see the plain copy zod makes of it. Unlike z.record, the keys are
 * read as zod reads an object's (inherited enumerable ones too, symbols not): the SDK hands it `ownData` copies.
 */
export function recordOf<T extends z.core.SomeType>(value: T, error = 'must be an object') {
  const values = z.catchall(z.object({}), value);
  return z.pipe(z.custom<z.input<typeof values>>(isPlainObject, error), values);
}

/** A length ceiling on a string, named in characters. */
export const atMost = (max: number) =>
  z.refine<string>((value) => value.length <= max, `must be at most ${max} characters`);

/** A string sent trimmed, as the service reads it. */
export const trimmedString = z.pipe(
  z.string(),
  z.transform((value) => value.trim()),
);

/** A caller-supplied query, sent as given: for filters whose names the spec does not show. */
export const PassThroughQuery = z.optional(
  recordOf(z.optional(z.nullable(z.union([z.string(), z.number(), z.boolean()])))),
);

function sizeMessage(bound: 'at least' | 'at most', limit: number | bigint, origin: string): string {
  if (origin === 'string') return `must be ${bound} ${limit} characters`;
  if (origin === 'array') return `must have ${bound} ${limit} items`;
  return `must be ${bound} ${limit}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // zod/mini ships no message locale; setting one would change the caller's own zod globally, so the few
  // issue kinds the SDK's schemas produce are phrased here.
  // Failures are parsed with reportInput (see `check`), so an absent input means the field was missing.
  const absent = issue.input === undefined;
  if (absent && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code)) return 'is required';
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    case 'too_small':
      return sizeMessage('at least', issue.minimum, issue.origin);
    case 'too_big':
      return sizeMessage('at most', issue.maximum, issue.origin);
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_union':
      return 'does not match any accepted form';
    default:
      return 'is invalid';
  }
}

/** The pass-through property of a request schema's top level (`extra` of a body, `query` of list filters), if any. */
function passThroughKey(schema: Schema<unknown>): 'extra' | 'query' | undefined {
  const shape = (schema._zod.def as { shape?: object }).shape ?? {};
  return 'extra' in shape ? 'extra' : 'query' in shape ? 'query' : undefined;
}

const UNKNOWN_FIELD = {
  extra: 'is not a known field: check its spelling, or put a field the spec does not name in `extra`',
  query: 'is not a known field: check its spelling, or put a parameter the spec does not show in `query`',
  none: 'is not a known field',
};

/** `schema`, when given, is the request schema: an unknown top-level key then names its pass-through property. */
export function toFieldIssues(
  error: z.core.$ZodError,
  prefix: readonly string[] = [],
  schema?: Schema<unknown>,
): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path.map(String)];
    // An unknown key is named as the field itself, so `field` points at what to remove.
    if (issue.code === 'unrecognized_keys') {
      const hint = issue.path.length === 0 && schema ? passThroughKey(schema) : undefined;
      const message = UNKNOWN_FIELD[hint ?? 'none'];
      return issue.keys.map((key) => ({ path: [...path, key], message }));
    }
    return [{ path, message: describeIssue(issue) }];
  });
}

/**
 * Values a schema checks by zod's interpreted parser before it is compiled. A compile takes 0.1-1 ms a schema
 * (about 9 ms for the first, while the compiler itself warms up), so a schema used once (an inline one of
 * `client.request`) or a process that makes one call never pays for it, and a walk compiles on its first page.
 */
const COMPILE_AFTER = 64;
/** Per schema: how many values it has checked so far, or, once compiled, the compiled clone. */
const compiled = new WeakMap<Schema<unknown>, number | Schema<unknown>>();

/**
 * How responses are validated in this process, and why: zod's compiled parsers where the build has the compiler
 * (package.json's `#compiler`: Node, Bun, Deno) and code generation is allowed, else its interpreted ones.
 */
export function validationPath(): { compiled: boolean; why: string } {
  const compile = compiler();
  if (typeof compile === 'string') return { compiled: false, why: compile };
  return {
    compiled: true,
    why: `zod's compiler (z.compile), per schema once it has checked ${COMPILE_AFTER} values`,
  };
}

/**
 * The schema that checks a response value: `schema` itself, or its compiled clone once it is warm. zod's clone
 * runs the generated parser first and hands any value it rejects to the original schema's own parser, so a
 * failure carries the same issues either way (`test/rules/compiled.test.ts` compares the two on every response
 * the mock gives and on broken ones). `jitless` is read on each use, so setting it later still turns the
 * compiled path off.
 */
function responseSchema<T>(schema: Schema<T>): Schema<T> {
  const seen = compiled.get(schema);
  if (typeof seen === 'object') return z.config().jitless ? schema : (seen as Schema<T>);
  if ((seen ?? 0) + 1 < COMPILE_AFTER) {
    compiled.set(schema, (seen ?? 0) + 1);
    return schema;
  }
  // zod's compile never throws: a schema it cannot compile (an async refinement) comes back as it was.
  const compile = compiler();
  const fast = typeof compile === 'string' ? schema : compile(schema);
  compiled.set(schema, fast);
  return fast;
}

/**
 * Parses without `reportInput` first: it doubles the cost of a parse and is needed only to tell "missing" from
 * "wrong type" in a message, so only a failure is parsed again with it, always by `schema` itself. `response`:
 * the value is a response's, checked by the compiled parser where there is one (see `responseSchema`).
 */
export function check<T>(
  schema: Schema<T>,
  value: unknown,
  response = false,
): { ok: true; data: T } | { ok: false; error: z.core.$ZodError } {
  const result = z.safeParse(response ? responseSchema(schema) : schema, value);
  if (result.success) return { ok: true, data: result.data };
  const detailed = z.safeParse(schema, value, { reportInput: true });
  return detailed.success ? { ok: true, data: detailed.data } : { ok: false, error: detailed.error };
}

/**
 * Validates caller input; throws `RequestValidationError` naming the field, so nothing is sent. The one
 * validation path of requests: the mock reads the same schemas through `fieldIssues`.
 */
export function parseRequest<T>(schema: Schema<T>, input: unknown, prefix: readonly string[] = []): T {
  const result = check(schema, ownData(input));
  if (!result.ok) throw new RequestValidationError(toFieldIssues(result.error, prefix, schema));
  return result.data;
}

/** Every problem `schema` finds in `input` (never throws), `[]` when valid: the same messages as `parseRequest`. */
export function fieldIssues(schema: Schema<unknown>, input: unknown): FieldIssue[] {
  try {
    const result = check(schema, ownData(input));
    return result.ok ? [] : toFieldIssues(result.error, [], schema);
  } catch {
    return [{ path: [], message: 'is not a valid body' }];
  }
}

/**
 * `extra` carries the fields the spec names without spelling; one it spells belongs in its own property, where
 * it is checked, so a spelled name inside `extra` is refused rather than sent unchecked. So is `toJSON` or a
 * function value: `JSON.stringify` would call it and send whatever it returns in place of the whole body.
 */
export function extraIssues(
  extra: Record<string, unknown> | undefined,
  spelled: readonly string[],
): z.core.$ZodRawIssue[] {
  return Object.entries(extra ?? {}).flatMap(([key, value]): z.core.$ZodRawIssue[] => {
    const path = ['extra', key];
    if (spelled.includes(key)) return [{ code: 'custom', path, message: `set ${key} itself`, input: key }];
    if (key === 'toJSON' || typeof value === 'function' || typeof value === 'symbol') {
      return [
        { code: 'custom', path, message: 'must be a JSON value (no functions, no toJSON)', input: key },
      ];
    }
    return [];
  });
}

/** A body as the wire carries it, its fields that `spelled` does not name (or named `extra`) gathered in `extra`. */
export function gatherExtra(
  body: Record<string, unknown>,
  spelled: readonly string[],
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    (spelled.includes(key) && key !== 'extra' ? fields : extra)[key] = value;
  }
  return { ...fields, extra };
}
