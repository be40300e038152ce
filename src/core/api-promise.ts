/** The HTTP side of a successful call: what a support ticket or a metrics pipeline needs. */
export interface ResponseInfo {
  status: number;
  /** Response headers (the API key redacted, should the server echo it). */
  headers: Headers;
  /** The `x-request-id` header, when the service sent one: quote it to support. */
  requestId?: string;
}

/** A result with the response it came from. */
export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/**
 * What every single-request method returns: `await` it for the data, or `.withResponse()` for the data and the
 * response (status, headers, request id). The request starts at once, as with any promise.
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;

  /** Only the SDK builds one (a method call returns it): the constructor is private. */
  private constructor(run: () => Promise<WithResponse<T>>) {
    this.#result = run();
  }

  /** The data and the response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  /** Makes the call awaitable for its data. */
  // biome-ignore lint/suspicious/noThenProperty: APIPromise is deliberately awaitable.
  then<A = T, B = never>(
    onfulfilled?: ((data: T) => A | PromiseLike<A>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: as Promise's own signature, so callers may type the reason.
    onrejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result.then((r) => r.data).then(onfulfilled, onrejected);
  }

  /** Handles a failure, as `Promise.prototype.catch`. */
  // biome-ignore lint/suspicious/noExplicitAny: as Promise's own signature, so callers may type the reason.
  catch<B = never>(onrejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  /** Runs after the call settles, as `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}

/**
 * `APIPromise` as the SDK's pipeline builds it. The class's constructor is private, so a caller cannot build one; this alias is not exported from the package.
 */
export const InternalAPIPromise = APIPromise as unknown as new <T>(
  run: () => Promise<WithResponse<T>>,
) => APIPromise<T>;
export type InternalAPIPromise<T> = APIPromise<T>;

/** A response's status, and its `x-request-id` when the service sent one. */
export function statusAndId({ status, headers }: { status: number; headers: Headers }) {
  const requestId = headers.get('x-request-id');
  return { status, ...(requestId && { requestId }) };
}

/** The response info of a read response. */
export function responseInfo(response: { status: number; headers: Headers }): ResponseInfo {
  return { ...statusAndId(response), headers: response.headers };
}
