import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import {
  findByReference,
  lookupBeforeRetry,
  payoutTracker,
  searchByReference,
  trackPayout,
  waitForFinal,
} from '../../src/payouts/index.js';
import { createPayerNameWithDocuments } from '../../src/uploads/index.js';
import { BENEFICIARY, thrownBy } from '../helpers/fixtures.js';
import { makeClient, useServer } from '../helpers/server.js';

// Any request at all fails the test: every refusal below happens before one leaves.
useServer();

const body = {
  amount: '10.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference: 'e-1',
} as const;
const MESSAGE =
  /^\w+: the first argument must be a PaymentsClient \(from this copy of payments-service-sdk\)$/;

describe('the payouts and uploads entries take a PaymentsClient first, and nothing else', () => {
  // A look-alike (a hand-made object, a client's namespace, a client of another copy of the SDK) has no pipeline
  // the entry can reach: a TypeError naming the function, before anything is sent, rather than a crash inside.
  const impostors: [string, unknown][] = [
    ['undefined', undefined],
    ['a plain object with payouts', { payouts: { create: () => undefined } }],
    ['the payouts namespace itself', makeClient().payouts],
  ];
  const calls: [string, (client: never) => unknown][] = [
    ['lookupBeforeRetry', (c) => lookupBeforeRetry(c, body)],
    ['findByReference', (c) => findByReference(c, 'e-1')],
    ['searchByReference', (c) => searchByReference(c, 'e-1')],
    ['payoutTracker', (c) => payoutTracker(c)],
    ['trackPayout', (c) => trackPayout(c, 'e-1')],
    ['waitForFinal', (c) => waitForFinal(c, 'e-1')],
    ['createPayerNameWithDocuments', (c) => createPayerNameWithDocuments(c, { documents: [] } as never)],
  ];
  for (const [name, call] of calls) {
    it(`${name} refuses anything but a client, naming itself`, async () => {
      for (const [, impostor] of impostors) {
        const error = await thrownBy(() => call(impostor as never));
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(MESSAGE);
        expect((error as Error).message.startsWith(`${name}:`)).toBe(true);
      }
    });
  }

  it('an unknown option names the function it was given to', async () => {
    const client = makeClient();
    for (const [name, call] of [
      ['findByReference', () => findByReference(client, 'e-1', { Since: new Date() } as never)],
      ['searchByReference', () => searchByReference(client, 'e-1', { Since: new Date() } as never)],
    ] as const) {
      const error = await thrownBy(call);
      expect((error as Error).message).toBe(`Unknown option Since for ${name}: did you mean since?`);
    }
  });

  it('a derived client (forAccount, withOptions) is a client', () => {
    const client = new PaymentsClient({ apiKey: 'sk_x', baseUrl: 'https://payments.test' });
    const tenant = client.forAccount('3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f');
    expect(payoutTracker(tenant).size).toBe(0);
    expect(payoutTracker(client.withOptions({ timeout: 5000 })).size).toBe(0);
  });
});
