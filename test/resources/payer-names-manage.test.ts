import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import { capture as captureOn, ID, payerName, rejection } from '../helpers/payer-names.js';
import { BASE, fail, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();
const capture = (path: string, respond: () => Response) => captureOn(server, path, respond);

describe('payerNames.update (inferred PATCH /payer-names/{id})', () => {
  it('patches the snake_case fields, including metadata', async () => {
    const seen = capture(`/payer-names/${ID}`, () => ok(payerName({ metadata: { crm: 'c-9' } })));
    const result = await makeClient().payerNames.update(ID, { city: 'Abuja', metadata: { crm: 'c-9' } });
    expect(seen[0]!.method).toBe('PATCH');
    expect(seen[0]!.body).toEqual({ city: 'Abuja', metadata: { crm: 'c-9' } });
    expect(result.metadata).toEqual({ crm: 'c-9' });
  });

  it.each([
    ['not-a-uuid', { city: 'Abuja' }, 'payerNameId', 'must be a uuid'],
    [ID, { city: '' }, 'city', 'must not be empty'],
    [ID, { metadata: { a: [1] } }, 'metadata.a', 'metadata is flat'],
    [ID, { documents: [] }, 'documents', 'is not a known field'],
    [ID, { entity_type: 'business', first_name: 'Ada' }, 'first_name', 'individual only'],
  ])('refuses id %s body %o, naming %s', async (id, body, field, message) => {
    const seen = capture('/payer-names/*', () => ok(payerName()));
    const error = await rejection(makeClient().payerNames.update(id, body as any));
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as RequestValidationError).message).toContain(message);
    expect(seen).toHaveLength(0);
  });
});

describe('payerNames.setDefault', () => {
  it.each([
    [[], true],
    [[true], true],
    [[false], false],
  ])('sends isDefault (args %o -> %s)', async (args, isDefault) => {
    const seen = capture(`/payer-names/${ID}/default`, () =>
      HttpResponse.json({
        status: 200,
        message: 'Default payer name updated',
        success: true,
        data: payerName({ status: 'active', isDefault }),
      }),
    );
    const result = await makeClient().payerNames.setDefault(ID, ...(args as [boolean?]));
    expect(seen[0]!.method).toBe('PATCH');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(seen[0]!.body).toEqual({ isDefault });
    expect(result.isDefault).toBe(isDefault);
  });

  it.each([
    [fail(400, 'Only an approved payer name can be the default'), BadRequestError],
    [fail(403, 'Payer names are not enabled', { code: 'PAYER_NAMES_DISABLED' }), PermissionDeniedError],
    [fail(404, 'Payer name not found'), NotFoundError],
  ])('turns %# into a typed error', async (response, Class) => {
    capture(`/payer-names/${ID}/default`, () => response.clone());
    await expect(makeClient().payerNames.setDefault(ID)).rejects.toBeInstanceOf(Class);
  });

  it('refuses a bad id or a non-boolean flag', async () => {
    const client = makeClient();
    await expect(client.payerNames.setDefault('../x')).rejects.toThrow(/payerNameId: must be a uuid/);
    await expect(client.payerNames.setDefault(ID, 'yes' as any)).rejects.toThrow(
      /isDefault: must be a boolean/,
    );
  });
});

describe('payerNames.archive', () => {
  it('deletes with no body and returns the archived name', async () => {
    const seen = capture(`/payer-names/${ID}`, () =>
      HttpResponse.json({
        status: 200,
        message: 'Payer name archived',
        success: true,
        data: payerName({ status: 'archived' }),
      }),
    );
    const result = await makeClient().payerNames.archive(ID);
    expect(seen[0]!.method).toBe('DELETE');
    expect(seen[0]!.body).toBeUndefined();
    expect([result.status, result.isDefault]).toEqual(['archived', false]);
  });

  it('is retried after a 503, being idempotent', async () => {
    let calls = 0;
    server.use(
      http.delete(`${BASE}/payer-names/${ID}`, () =>
        ++calls === 1
          ? fail(503, 'Service Unavailable', {}, { 'retry-after': '0' })
          : ok(payerName({ status: 'archived' })),
      ),
    );
    expect((await makeClient().payerNames.archive(ID)).status).toBe('archived');
    expect(calls).toBe(2);
  });

  it.each([
    [fail(403, 'Payer names are not enabled', { code: 'PAYER_NAMES_DISABLED' }), PermissionDeniedError],
    [fail(404, 'Payer name not found'), NotFoundError],
  ])('turns %# into a typed error', async (response, Class) => {
    capture(`/payer-names/${ID}`, () => response.clone());
    const error = await rejection(makeClient().payerNames.archive(ID));
    expect(error).toBeInstanceOf(Class);
  });

  it('refuses a bad id', async () => {
    await expect(makeClient().payerNames.archive('..')).rejects.toBeInstanceOf(RequestValidationError);
  });
});
