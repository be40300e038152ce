import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AcceptedButUnreadableError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  PaginationError,
  PaymentsError,
  PayoutLookupIncompleteError,
  PayoutOutcomeUnknownError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../../src/index.js';
import { BASE, makeClient, useServer } from '../helpers/server.js';

// An error carries no own field whose value is `undefined`: a field the call did not produce is absent.

function undefinedOwnFields(error: object): string[] {
  return Reflect.ownKeys(error)
    .filter((key) => (error as Record<PropertyKey, unknown>)[key] === undefined)
    .map(String);
}

const server = useServer();

describe('errors carry no undefined own fields', () => {
  it('an APIError for a 302 with an empty body has no own body', async () => {
    server.use(
      http.get(`${BASE}/banks`, () => new HttpResponse(null, { status: 302, headers: { Location: '/x' } })),
    );
    const error = await makeClient()
      .request({ method: 'GET', path: '/banks' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(Object.hasOwn(error as object, 'body')).toBe(false);
    expect(undefinedOwnFields(error as object)).toEqual([]);
  });

  it('every error class, built with its optional parts left out', () => {
    const headers = new Headers();
    const errors: object[] = [
      new PaymentsError('x'),
      new PaymentsError('x', { cause: undefined }),
      APIError.from(500, undefined, headers),
      APIError.from(400, { message: 'Validation failed' }, headers),
      new APIConnectionError('x', { cause: undefined }),
      new APIConnectionError(),
      new APITimeoutError(),
      new APIUserAbortError(),
      new RequestValidationError([]),
      new ResponseValidationError(200, undefined, [], 'body is not JSON'),
      new ResponseTooLargeError(200, 10),
      new AcceptedButUnreadableError('POST /payouts', 201, headers, 'the body was cut'),
      new AcceptedButUnreadableError('POST /payouts', 201, headers, 'cut', {
        cause: undefined,
        body: undefined,
      }),
      new PaginationError(2, 'repeats'),
      new PayoutLookupIncompleteError('ref', 'reason', { cause: undefined }),
      new PayoutOutcomeUnknownError('ref', 1, [], 'reason'),
    ];
    for (const error of errors)
      expect([error.constructor.name, undefinedOwnFields(error)]).toEqual([error.constructor.name, []]);
  });
});
