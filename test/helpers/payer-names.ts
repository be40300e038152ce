import { http } from 'msw';
import type { SetupServer } from 'msw/node';
import { expect } from 'vitest';
import type { PayerNameCreateParams } from '../../src/resources/payer-names.js';
import { BASE } from './server.js';

export const ID = '7d0c3b9e-2f4a-4b8c-9d1e-0a1b2c3d4e5f';
export const valid: PayerNameCreateParams = {
  entity_type: 'business',
  display_name: 'Acme Payments',
  registration_number: 'RC123456',
  registration_date: '2020-02-29',
  country: 'NG',
  address_line: '1 Marina Road',
  city: 'Lagos',
  state_province: 'Lagos',
  postal_code: '100001',
};

/** A payer name as the spec's resource table describes it. */
export function payerName(extra: Record<string, unknown> = {}) {
  return {
    id: ID,
    type: 'business',
    name: 'Acme Payments',
    firstName: null,
    lastName: null,
    registrationNumber: 'RC123456',
    registrationDate: '2020-02-29',
    country: 'NG',
    address: { line1: '1 Marina Road', city: 'Lagos', state: 'Lagos', postalCode: '100001' },
    status: 'pending_review',
    isDefault: false,
    decisionNote: null,
    documents: [],
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...extra,
  };
}

/**
 * A name just created from the Marina Road fields the tests send (no registration date or postal code), as the
 * service answers it: in review, with a fresh id and timestamps.
 */
export function createdPayerName(extra: Record<string, unknown> = {}) {
  return payerName({
    id: expect.any(String),
    registrationDate: null,
    address: { line1: '1 Marina Road', city: 'Lagos', state: 'Lagos', postalCode: null },
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    ...extra,
  });
}

export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** Records every request to `path` (any method) and answers with `respond`. */
export function capture(server: SetupServer, path: string, respond: () => Response) {
  const seen: Seen[] = [];
  server.use(
    http.all(`${BASE}${path}`, async ({ request }) => {
      const text = await request.text();
      seen.push({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      return respond();
    }),
  );
  return seen;
}

export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}
