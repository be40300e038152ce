import type { MockServer } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BENEFICIARY,
  CANARY_KEY,
  connect,
  countPosts,
  data,
  envFor,
  type Session,
  stateFile,
  usd,
  useMockServer,
} from './helpers.js';

const mock = useMockServer();
let session: Session;
const state = stateFile();

const start = (extra: Record<string, string> = {}) =>
  connect(
    envFor(mock.server(), {
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000,NGN=50000',
      PAYMENTS_MCP_LISTING_LAG_MS: '0',
      ...extra,
    }),
    ['--allow-payouts'],
  );

beforeAll(async () => {
  session = await start();
});
afterAll(async () => {
  expect(session.stderr().includes(CANARY_KEY)).toBe(false);
  await session?.close();
});

/**
 * Runs `then` as the n-th tracking round starts (its first read of the default listing): the service moves the
 * payout between two rounds, and the answer can only show it if the tool went on following.
 */
function atRound(server: MockServer, n: number, then: () => void): () => number {
  let rounds = 0;
  server.mock.faults.next({
    status: 500,
    times: Number.MAX_SAFE_INTEGER,
    match: (r) => {
      if (r.method === 'GET' && r.path === '/transactions' && r.query.get('status') !== 'failed') {
        if (++rounds === n) then();
      }
      return false;
    },
  });
  return () => rounds;
}

describe('track_payout', () => {
  it('is listed with payouts, read-only, and states its bound', async () => {
    const { tools } = await session.client.listTools();
    const tool = tools.find((t) => t.name === 'track_payout')!;
    expect(tool.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(tool.description).toContain('at most 45 s (PAYMENTS_MCP_TRACK_WAIT_MS)');
    expect(tool.inputSchema.required).toEqual(['externalReference']);
    const readOnly = await connect(envFor(mock.server()));
    try {
      expect((await readOnly.client.listTools()).tools.map((t) => t.name)).not.toContain('track_payout');
    } finally {
      await readOnly.close();
    }
  });

  it('follows a recorded payout to its final status and UETR, sending nothing', async () => {
    const sent = data(await session.call('send_payout', usd('track-1', '25.00')));
    expect(sent).toMatchObject({ status: 'created' });
    const server = mock.server();
    const posts = countPosts(server);
    const rounds = atRound(server, 2, () => {
      server.mock.transactions.setStatus(sent.payout.id, 'completed');
      server.mock.transactions.assignUetr(sent.payout.id, { uetr: '6f1c1a7e-3f0e-4c2b-9d55-1d2b3c4d5e6f' });
    });
    try {
      const tracked = await session.call('track_payout', { externalReference: 'track-1' });
      expect(tracked.isError).toBeFalsy();
      expect(data(tracked)).toMatchObject({
        externalReference: 'track-1',
        recorded: 'created',
        final: true,
        status: 'completed',
        uetr: '6f1c1a7e-3f0e-4c2b-9d55-1d2b3c4d5e6f',
        trackingCodes: { UETR: '6f1c1a7e-3f0e-4c2b-9d55-1d2b3c4d5e6f' },
        transaction: { id: sent.payout.id, status: 'completed' },
      });
      expect(tracked.content[0]).toMatchObject({
        text: expect.stringMatching(/^Payout track-1 is completed \(final\); UETR 6f1c1a7e-/),
      });
      // It waited for the second round: the first showed the payout processing.
      expect(rounds()).toBeGreaterThanOrEqual(2);
      expect(posts()).toBe(0);
    } finally {
      server.mock.faults.clear();
    }
  });

  it('answers within its bound with the last status seen when the payout is not final yet', async () => {
    const bounded = await start({ PAYMENTS_MCP_TRACK_WAIT_MS: '300' });
    try {
      const sent = data(await bounded.call('send_payout', usd('track-2', '10.00')));
      expect(sent).toMatchObject({ status: 'created' });
      const tracked = await bounded.call('track_payout', { externalReference: 'track-2' });
      expect(tracked.isError).toBeFalsy();
      expect(data(tracked)).toMatchObject({
        externalReference: 'track-2',
        final: false,
        status: 'processing',
        uetr: null,
        note: expect.stringContaining('Not final after 0.3 s'),
      });
    } finally {
      await bounded.close();
    }
  });

  it('waits for a UETR after the final status when asked to, within the bound', async () => {
    const sent = data(await session.call('send_payout', usd('track-3', '12.00')));
    const server = mock.server();
    server.mock.transactions.setStatus(sent.payout.id, 'completed');
    const plain = data(await session.call('track_payout', { externalReference: 'track-3' }));
    expect(plain).toMatchObject({
      final: true,
      status: 'completed',
      uetr: null,
      note: expect.stringContaining('No UETR yet'),
    });
    // The UETR comes with the second round of the next call: only a call that waits on sees it.
    const uetr = '0b7e8f7a-2a1d-4a8e-8f7c-5a6b7c8d9e0f';
    const rounds = atRound(server, 2, () => server.mock.transactions.assignUetr(sent.payout.id, { uetr }));
    try {
      const waited = data(
        await session.call('track_payout', { externalReference: 'track-3', waitForUetr: true }),
      );
      expect(waited).toMatchObject({ final: true, status: 'completed', uetr, trackingCodes: { UETR: uetr } });
      expect(rounds()).toBeGreaterThanOrEqual(2);
    } finally {
      server.mock.faults.clear();
    }
  });

  it('follows an NGN payout by its record (the service lists it under a reference of its own)', async () => {
    const sent = data(
      await session.call('send_payout', {
        externalReference: 'track-ngn-1',
        amount: '100.00',
        currency: 'NGN',
        beneficiary: BENEFICIARY,
        nameEnquiry: {
          accountNumber: BENEFICIARY.accountNumber,
          bankCode: '000013',
          accountName: BENEFICIARY.accountName,
        },
      }),
    );
    expect(sent).toMatchObject({ status: 'created' });
    mock.server().mock.transactions.setStatus(sent.payout.id, 'failed');
    const tracked = data(await session.call('track_payout', { externalReference: 'track-ngn-1' }));
    expect(tracked).toMatchObject({
      final: true,
      status: 'failed',
      uetr: null,
      transaction: { id: sent.payout.id },
    });
  });

  it('refuses a reference this server did not record, naming it, and says what nothing moved means', async () => {
    const unknown = data(await session.call('track_payout', { externalReference: 'never-sent-1' }));
    expect(unknown.error).toMatchObject({
      class: 'RequestValidationError',
      issues: [{ path: ['externalReference'], message: expect.stringContaining('find_payout_by_reference') }],
    });
    // A payout the service refused moved nothing: there is nothing to follow, and the answer says so at once.
    mock.server().mock.faults.next({ status: 400, match: 'POST /payouts' });
    const refused = await session.call('send_payout', usd('track-refused-1', '10.00'));
    expect(data(refused)).toMatchObject({ status: 'refused' });
    const tracked = data(await session.call('track_payout', { externalReference: 'track-refused-1' }));
    expect(tracked).toMatchObject({
      recorded: 'refused',
      final: true,
      status: null,
      note: expect.stringContaining('nothing moved'),
    });
  });
});
