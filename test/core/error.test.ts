import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PaymentsError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
} from '../../src/index.js';
import { BASE, makeClient, useServer } from '../helpers/server.js';

const server = useServer();

async function errorFor(response: () => Response): Promise<APIError> {
  server.use(http.get(`${BASE}/thing`, response));
  const error = await makeClient({ maxRetries: 0 })
    .request({ method: 'GET', path: '/thing' })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(PaymentsError);
  return error as APIError;
}

describe('error classes by status', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])('%i -> %o, from the numeric envelope', async (status, Class) => {
    const error = await errorFor(() => HttpResponse.json({ status, message: 'Nope' }, { status }));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(status);
    expect(error.message).toBe(`${status} Nope`);
    expect(error.body).toEqual({ status, message: 'Nope' });
  });

  it('reads the boolean (legacy) error envelope', async () => {
    const error = await errorFor(() =>
      HttpResponse.json({ status: false, message: 'Invalid or inactive API key' }, { status: 401 }),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe('401 Invalid or inactive API key');
  });

  it('treats a 200 whose legacy body says status:false as an error', async () => {
    const error = await errorFor(() => HttpResponse.json({ status: false, message: 'Insufficient balance' }));
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toContain('Insufficient balance');
  });

  it('carries validation errors, naming each field', async () => {
    const error = await errorFor(() =>
      HttpResponse.json(
        {
          status: 400,
          message: 'Validation failed',
          errors: [
            { path: ['amount'], message: 'amount must be a whole number of smallest currency units' },
            { path: ['bank_address', 'city'], message: 'Required' },
          ],
        },
        { status: 400 },
      ),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.errors).toEqual([
      { path: ['amount'], message: 'amount must be a whole number of smallest currency units' },
      { path: ['bank_address', 'city'], message: 'Required' },
    ]);
    expect(error.message).toBe(
      '400 Validation failed: amount: amount must be a whole number of smallest currency units; bank_address.city: Required',
    );
  });

  it('carries codes and the extra fields of account and provider errors', async () => {
    const restricted = await errorFor(() =>
      HttpResponse.json(
        { status: 403, message: 'Account restricted', code: 'ACCOUNT_RESTRICTED', accountBlocked: true },
        { status: 403, headers: { 'x-request-id': 'req_123' } },
      ),
    );
    expect(restricted).toBeInstanceOf(PermissionDeniedError);
    expect(restricted.code).toBe('ACCOUNT_RESTRICTED');
    expect(restricted.accountBlocked).toBe(true);
    expect(restricted.requestId).toBe('req_123');
    expect(restricted.headers.get('x-request-id')).toBe('req_123');

    const other = await errorFor(() =>
      HttpResponse.json(
        {
          status: 400,
          message: 'Provider error',
          code: 'SOMETHING_NEW',
          provider: 'acme',
          missingFields: ['bvn'],
        },
        { status: 400 },
      ),
    );
    expect(other.code).toBe('SOMETHING_NEW');
    expect(other.provider).toBe('acme');
    expect(other.missingFields).toEqual(['bvn']);
  });

  it('turns an HTML 502 from a proxy into a typed error carrying the text', async () => {
    const error = await errorFor(
      () =>
        new HttpResponse('<html><body><h1>502 Bad Gateway</h1></body></html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
    expect(error.message).toContain('502 Bad Gateway');
  });

  it('handles an error with an empty body', async () => {
    const error = await errorFor(() => new HttpResponse(null, { status: 404 }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('404 HTTP 404');
  });

  it('a 2xx that is not JSON is a ResponseValidationError with the raw body', async () => {
    server.use(
      http.get(
        `${BASE}/thing`,
        () => new HttpResponse('<html>ok</html>', { headers: { 'content-type': 'text/html' } }),
      ),
    );
    const error = await makeClient()
      .request({ method: 'GET', path: '/thing' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('<html>ok</html>');
  });
});
