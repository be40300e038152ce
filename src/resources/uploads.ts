import { type FieldIssue, PaymentsError } from '../core/error.js';
import type { TransportRequest } from '../internal/transport.js';
import { acceptedType, describeTypes, type UploadPolicy } from '../rules/upload-policy.js';

/**
 * Multipart uploads that never hold a whole file in memory: each file becomes a lazy part whose bytes are
 * read only while the request body is being sent, and the body is a pull-based stream, so at most a chunk or
 * two per part is in flight. Node-only modules are imported on first use, so the main entry loads anywhere.
 */

// Structural types only: naming Node's `Readable` here put `import ... from "node:stream"` in the published
// `.d.ts`, which does not compile for users without @types/node (TypeScript 6 and later default to `types: []`).
// A `Readable` is an async iterable, so `AsyncIterable<Uint8Array>` still takes it.
/**
 * A file to upload: a path on disk (Node), a `Blob`/`File`, bytes (a Node `Buffer` is a `Uint8Array`), or a
 * stream of bytes (`size` required): a web `ReadableStream`, or any async iterable of bytes, such as a Node
 * `Readable` from `fs.createReadStream(path)`.
 */
export type UploadFile = string | Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A file with the details the caller knows about it. */
export interface UploadInput {
  file: UploadFile;
  /** Name sent to the server. Default: the path's or `File`'s name, else `document-N` plus the type's extension. */
  fileName?: string;
  /** MIME type. Default: the `Blob`'s own type, else judged from the file name's extension. */
  contentType?: string;
  /** Bytes. Required for a stream (the request declares its length up front); checked for other kinds. */
  size?: number;
}

// form-data-encoder re-slices any chunk over 64 KiB from `chunk.buffer` and ignores `byteOffset`, which
// corrupts a Buffer view (pooled or subarray); chunks of at most this size pass through it untouched.
const CHUNK = 64 * 1024;

/** One lazily read file part; shaped like a `File` so formdata-node and form-data-encoder accept it. */
export class UploadPart {
  readonly lastModified = Date.now();
  constructor(
    readonly name: string,
    readonly type: string,
    readonly size: number,
    private readonly open: () => AsyncIterable<unknown> | ReadableStream<unknown>,
  ) {}

  /** The bytes, in chunks of at most 64 KiB; fails the upload if the source's length differs from `size`. */
  async *stream(): AsyncGenerator<Uint8Array> {
    let seen = 0;
    for await (const chunk of iterate(this.open())) {
      if (!(chunk instanceof Uint8Array)) throw new PaymentsError(`${this.name}: stream must yield bytes`);
      seen += chunk.byteLength;
      if (seen > this.size) {
        throw new PaymentsError(`${this.name}: more than the declared ${this.size} bytes`);
      }
      if (chunk.byteLength <= CHUNK) yield chunk;
      else for (let at = 0; at < chunk.byteLength; at += CHUNK) yield chunk.subarray(at, at + CHUNK);
    }
    if (seen !== this.size) throw new PaymentsError(`${this.name}: ${seen} bytes, declared ${this.size}`);
  }

  get [Symbol.toStringTag](): string {
    return 'File';
  }
}

function iterate(source: AsyncIterable<unknown> | ReadableStream<unknown>): AsyncIterable<unknown> {
  if (Symbol.asyncIterator in source) return source as AsyncIterable<unknown>;
  // Browsers' ReadableStream is not async-iterable everywhere yet.
  const reader = (source as ReadableStream<unknown>).getReader();
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
      } finally {
        reader.releaseLock();
      }
    },
  };
}

// Each chunk read from disk is garbage once sent, and Node frees it only at the next GC, so smaller reads keep
// less in flight. Measured with bench/upload.mjs for a 50 MB upload: 64 KiB (a read stream's default) +34-41 MB
// peak RSS, 16 KiB +29-34 MB, 8 KiB +19-23 MB, at about 20 % more time on loopback (none that a real network
// would show).
const READ_CHUNK = 8 * 1024;

/** A path's bytes, read lazily; like formdata-node's `fileFromPath`, refuses a file changed since stat. */
async function* readPath(
  fs: typeof import('node:fs'),
  path: string,
  checkedAt: number,
): AsyncGenerator<unknown> {
  const { mtimeMs } = await fs.promises.stat(path);
  if (mtimeMs > checkedAt) throw new PaymentsError(`${path} changed on disk after it was checked`);
  yield* fs.createReadStream(path, { highWaterMark: READ_CHUNK });
}

function isBlob(value: unknown): value is Blob {
  const tag = (value as { [Symbol.toStringTag]?: unknown } | null)?.[Symbol.toStringTag];
  return (tag === 'Blob' || tag === 'File') && typeof (value as Blob).stream === 'function';
}

function isStream(value: unknown): value is AsyncIterable<unknown> | ReadableStream<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  return Symbol.asyncIterator in value || typeof (value as ReadableStream).getReader === 'function';
}

type Resolved = { part: UploadPart; issues?: undefined } | { part?: undefined; issues: FieldIssue[] };

/**
 * Checks one file against the policy and turns it into a lazy part. A path is only stat-ed here; nothing is
 * read until the body is sent.
 */
export async function preparePart(
  input: UploadInput,
  path: string[],
  policy: UploadPolicy,
): Promise<Resolved> {
  const fail = (message: string, sub: string[] = []): Resolved => ({
    issues: [{ path: [...path, ...sub], message }],
  });
  const { file, fileName, contentType, size } = input;
  if (fileName !== undefined && (typeof fileName !== 'string' || fileName === '')) {
    return fail('must be a non-empty string', ['fileName']);
  }
  if (contentType !== undefined && typeof contentType !== 'string') {
    return fail('must be a string', ['contentType']);
  }
  if (size !== undefined && !(Number.isInteger(size) && size >= 0)) {
    return fail('must be a non-negative integer', ['size']);
  }
  const declared = contentType || (isBlob(file) && file.type !== '' ? file.type : undefined) || undefined;
  const ownName =
    typeof file === 'string' ? file.split(/[\\/]/).pop() : isBlob(file) ? (file as File).name : undefined;
  const provisional = fileName ?? ownName ?? '';
  const type = acceptedType(policy, declared, provisional);
  if (!type) {
    const judged = declared
      ? `type ${declared}`
      : provisional
        ? `"${provisional}"`
        : 'a file with no name or type';
    return fail(`${judged} is not accepted; accepted: ${describeTypes(policy)}`);
  }
  const name = fileName ?? (ownName || `document-${Number(path.at(-1)) + 1}${policy.types[type]![0] ?? ''}`);

  let part: UploadPart;
  if (typeof file === 'string') {
    try {
      // A stat, not formdata-node's `fileFromPath`, whose own File class would add ~2 kB gzipped to every bundle.
      const fs = await import('node:fs');
      const { size: bytes, mtimeMs } = await fs.promises.stat(file);
      part = new UploadPart(name, type, bytes, () => readPath(fs, file, mtimeMs));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return fail(`cannot read ${file}: ${typeof code === 'string' ? code : (error as Error).message}`);
    }
  } else if (isBlob(file)) {
    part = new UploadPart(name, type, file.size, () => file.stream());
  } else if (file instanceof Uint8Array) {
    part = new UploadPart(name, type, file.byteLength, async function* () {
      yield file;
    });
  } else if (isStream(file)) {
    if (size === undefined) return fail('is required for a stream (its byte length)', ['size']);
    part = new UploadPart(name, type, size, () => file);
  } else {
    return fail('must be a file path, Blob, File, Buffer, Uint8Array or readable stream', ['file']);
  }
  if (size !== undefined && size !== part.size) {
    return fail(`is ${size} but the file has ${part.size} bytes`, ['size']);
  }
  if (part.size > policy.maxBytes) {
    return fail(
      `is ${part.size} bytes; the limit is ${policy.maxBytes} bytes (${policy.maxBytes / 1048576} MB)`,
    );
  }
  return { part };
}

/** A pull-based web stream over an async iterable: the next chunk is produced only when fetch asks for it. */
function toWebStream(source: () => AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  let iterator: AsyncIterator<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      iterator ??= source()[Symbol.asyncIterator]();
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      await iterator?.return?.(reason);
    },
  });
}

/** The part of a FormData that form-data-encoder reads: entries in order, as the platform's FormData holds them. */
class EntryList {
  readonly #entries: Array<[string, string | UploadPart]> = [];
  append(name: string, value: string | UploadPart): void {
    this.#entries.push([name, value]);
  }
  getAll(name: string): Array<string | UploadPart> {
    return this.#entries.filter(([n]) => n === name).map(([, v]) => v);
  }
  entries(): IterableIterator<[string, string | UploadPart]> {
    return this.#entries[Symbol.iterator]();
  }
  [Symbol.iterator](): IterableIterator<[string, string | UploadPart]> {
    return this.#entries[Symbol.iterator]();
  }
  get [Symbol.toStringTag](): string {
    return 'FormData';
  }
}

/** Encodes text fields and file parts, in the given order, as a streamed `multipart/form-data` body. */
export async function encodeMultipart(
  fields: ReadonlyArray<[string, string | UploadPart]>,
): Promise<NonNullable<TransportRequest['stream']>> {
  const [{ FormData }, { FormDataEncoder }] = await Promise.all([
    import('formdata-node'),
    import('form-data-encoder'),
  ]);
  // In a worker bundle (workerd, a browser build) formdata-node resolves to the platform's own FormData, which
  // turns a lazy part into the string "[object File]"; form-data-encoder takes any spec-shaped form, so there a
  // plain list of entries stands in.
  const form =
    FormData === (globalThis as { FormData?: unknown }).FormData ? new EntryList() : new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const encoder = new FormDataEncoder(form);
  const length = encoder.contentLength === undefined ? undefined : Number(encoder.contentLength);
  return {
    stream: () => toWebStream(() => encoder.encode()),
    contentType: encoder.contentType,
    ...(length === undefined ? {} : { length }),
  };
}
