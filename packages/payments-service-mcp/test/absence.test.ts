/**
 * Absence and doubt through the MCP server over stdio (the official client, the real process): the server
 * remembers what it sent, across an immediate retry and a restart; a 503 after the service took a payout is
 * looked up, never sent again; rows sharing a timestamp across a page boundary and a clock two days off never
 * prove a payout absent; a POST cut off by a crash is looked up after the restart, and a refusal after that
 * proof is final.
 */

import { KNOWN_ACCOUNT_NUMBER, type MockServer, startMockServer } from 'payments-service-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { remarkFor } from '../src/tools/payout.js';
import {
  CANARY_KEY,
  connect,
  countPosts,
  data,
  envFor,
  type Session,
  stateFile,
  timePasses,
  trail,
} from './helpers.js';

const BENEFICIARY = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: KNOWN_ACCOUNT_NUMBER,
  bankName: 'Guaranty Trust Bank',
  bankCode: '000013',
  email: 'ada@example.com',
};
const ENQUIRY = {
  accountNumber: KNOWN_ACCOUNT_NUMBER,
  bankCode: '000013',
  accountName: 'ADAEZE KEMI OKAFOR',
};
const ngn = (externalReference: string) => ({
  externalReference,
  amount: '1000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  nameEnquiry: ENQUIRY,
});

let server: MockServer;
const sessions: Session[] = [];
beforeAll(async () => {
  server = await startMockServer({
    apiKeys: [{ key: CANARY_KEY, tenant: true, allowlist: ['127.0.0.1'] }],
    dedupeByReference: false,
  });
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  server.mock.reset();
});
afterAll(() => server?.close());

/** A server with payouts on, on its own record file unless one is given. */
async function start(extra: Record<string, string> = {}): Promise<Session> {
  const session = await connect(
    envFor(server, {
      PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000,USD=1000',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,20',
      PAYMENTS_MCP_BACKOFF_MS: '5,20',
      // No listing lag assumed unless a test is about it: a doubt is settled by the lookups within the call.
      PAYMENTS_MCP_LISTING_LAG_MS: '0',
      ...extra,
    }),
    ['--allow-payouts'],
  );
  sessions.push(session);
  return session;
}

/** Withdrawals the server made for `reference` (NGN ones carry it in the remark). */
const paid = (reference: string) =>
  server.mock
    .account()
    .transactions.filter(
      (t) => t.row.transaction_type === 'withdrawal' && t.row.description === remarkFor(reference),
    );

/** Waits for a condition of the mock's state, re-checked every 20 ms (a real process writes it). */
async function until(check: () => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `after` once, right after the mock has stored the next POST /payouts. */
function afterNextPost(after: () => void) {
  const handle = server.mock.handle.bind(server.mock);
  server.mock.handle = async (request, context) => {
    const response = await handle(request, context);
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payouts')) {
      server.mock.handle = handle;
      after();
    }
    return response;
  };
}

describe('the server remembers what it sent', () => {
  it('a lost 2xx while the listing lags: neither an immediate retry nor a restarted server POSTs it again', async () => {
    const state = stateFile();
    // The server allows the listing an hour to show a payout: each call answers while it is still looked for.
    const slow = {
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_SETTLE_MS: '300',
      PAYMENTS_MCP_LISTING_LAG_MS: '3600000',
    };
    const first = await start(slow);
    server.mock.faults.bodyFault('cut', 'POST /payouts').listingLag(3_600_000);
    expect(data(await first.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'in_progress' });
    expect(data(await first.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'in_progress' });
    await first.close();
    const restarted = await start(slow);
    expect(data(await restarted.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'in_progress' });
    expect(paid('mcp-7')).toHaveLength(1);
    await restarted.close();
    // The listing catches up, and the hour passes: the next call's lookup answers the one payout.
    for (const t of server.mock.account().transactions) t.visibleAt = 0;
    server.mock.faults.listingLag(0);
    timePasses(state, 2 * 3_600_000);
    const later = await start(slow);
    expect(data(await later.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'recovered' });
    expect(paid('mcp-7')).toHaveLength(1);
    expect(trail(state).filter((a) => a.kind === 'post')).toHaveLength(1);
  });

  it('a lost 2xx that is never listed ends unknown, and stays so: the retry answers the record with what to check', async () => {
    const state = stateFile();
    const session = await start({ PAYMENTS_MCP_STATE: state });
    server.mock.faults.bodyFault('cut', 'POST /payouts').listingLag(3_600_000);
    expect(data(await session.call('send_payout', ngn('mcp-7b')))).toMatchObject({ status: 'unknown' });
    await session.close();
    const restarted = await start({ PAYMENTS_MCP_STATE: state });
    const again = data(await restarted.call('send_payout', ngn('mcp-7b')));
    expect(again).toMatchObject({
      status: 'unknown',
      operatorMustCheck: expect.stringContaining('payments-outbox resolve'),
    });
    expect(paid('mcp-7b')).toHaveLength(1);
  });
});

describe('a 503 is a doubt, not "nothing moved"', () => {
  it('an NGN payout the service took before answering 503 is looked up, found, and never sent again', async () => {
    const state = stateFile();
    const session = await start({ PAYMENTS_MCP_STATE: state });
    // A gateway's 503 after the commit: the money moved, the answer says it did not.
    server.mock.faults.answerAfterCommit({ status: 503 });
    expect(data(await session.call('send_payout', ngn('mcp-503')))).toMatchObject({
      status: 'recovered',
      attempts: 1,
    });
    expect(data(await session.call('send_payout', ngn('mcp-503'))).status).toBe('recovered');
    expect(paid('mcp-503')).toHaveLength(1);
    const kinds = trail(state).map((a) => a.kind);
    expect(kinds.filter((k) => k === 'post')).toHaveLength(1);
    expect(kinds.indexOf('lookup')).toBeGreaterThan(kinds.indexOf('post'));
  });
});

describe('what the listing does never proves a payout absent', () => {
  it('rows sharing a timestamp across a page boundary do not hide the payout: recovered, sent once', async () => {
    server.mock.settings.invented.unstableTieOrder = true;
    const session = await start();
    server.mock.faults.bodyFault('cut', 'POST /payouts');
    afterNextPost(() => {
      const payout = server.mock.transactions.get('mcp-tie');
      const at = Date.parse(payout.created_at);
      server.mock.transactions.add({
        id: '00000000-0000-4000-8000-000000000000',
        created_at: payout.created_at,
      });
      for (let i = 1; i <= 99; i++)
        server.mock.transactions.add({ created_at: new Date(at + i * 1000).toISOString() });
    });
    expect(data(await session.call('send_payout', ngn('mcp-tie')))).toMatchObject({ status: 'recovered' });
    expect(paid('mcp-tie')).toHaveLength(1);
  });

  it("a clock two days off the service's: never proven absent, never sent twice, and the reason names the clock", async () => {
    server.mock.settings.clockOffsetMs = 172_800_000;
    const session = await start({ PAYMENTS_MCP_SETTLE_MS: '500' });
    server.mock.faults.next({ status: 503, match: 'POST /payouts' });
    const answer = data(await session.call('send_payout', ngn('mcp-skew')));
    expect(answer.status).toMatch(/^(in_progress|unknown)$/);
    // The Date header counts whole seconds: the estimate is two days give or take a second.
    expect(answer.reason).toMatch(
      /clock the lookup window was read from is about (?:172799|172800|172801) s behind the service's/,
    );
    expect(data(await session.call('send_payout', ngn('mcp-skew'))).status).toMatch(
      /^(in_progress|unknown)$/,
    );
    expect(
      server.mock
        .account()
        .transactions.filter(
          (t) => t.row.transaction_type === 'withdrawal' && String(t.row.description).endsWith('mcp-skew'),
        ),
    ).toHaveLength(0);
  });
});

describe('a POST in flight when the server died', () => {
  it('a payout the service took before the crash is found after the restart, and never POSTed again', async () => {
    const state = stateFile();
    const before = await start({ PAYMENTS_MCP_STATE: state });
    // The service takes the payout and never answers; the server dies with the POST in flight.
    server.mock.faults.hangAfterCommit('POST /payouts').listingLag(3_600_000);
    const lost = before.call('send_payout', ngn('mcp-crash')).catch(() => undefined);
    await until(() => paid('mcp-crash').length === 1);
    await before.close();
    await lost;
    // Two minutes on: the dead server's lease and the longest its POST could take are over, and the listing
    // shows the payout by now.
    timePasses(state, 120_000);
    for (const t of server.mock.account().transactions) t.visibleAt = 0;
    server.mock.faults.listingLag(0);
    const after = await start({ PAYMENTS_MCP_STATE: state });
    const posts = countPosts(server);
    expect(data(await after.call('send_payout', ngn('mcp-crash')))).toMatchObject({ status: 'recovered' });
    expect(paid('mcp-crash')).toHaveLength(1);
    expect(posts()).toBe(0);
  });

  it('a POST the crash cut off before the service took it is proven absent after the restart; a refusal then is final and frees the daily cap', async () => {
    const state = stateFile();
    const settings = { PAYMENTS_MCP_STATE: state, PAYMENTS_MCP_DAILY_CAPS: 'NGN=1000' };
    const before = await start(settings);
    // The POST reaches the service, which never takes it nor answers; the server dies meanwhile.
    server.mock.faults.hang('POST /payouts');
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const handle = server.mock.handle.bind(server.mock);
    server.mock.handle = (request, context) => {
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payouts')) {
        server.mock.handle = handle;
        arrived();
      }
      return handle(request, context);
    };
    const call = before.call('send_payout', ngn('mcp-5'));
    const lost = call.catch(() => undefined);
    // A call that ends before its POST arrives says so, rather than waiting out the test.
    await Promise.race([
      reached,
      call.then((answer) => {
        throw new Error(`send_payout ended before its POST arrived: ${JSON.stringify(answer)}`);
      }),
    ]);
    await before.close();
    await lost;
    // Two hours on, a lookup read well past the listing lag proves the payout absent. The wallet now covers
    // less than the payout: the next POST is refused.
    timePasses(state, 2 * 3_600_000);
    const wallet = server.mock.account().wallets.find((w) => w.currency === 'NGN')!;
    const funded = wallet.available_balance;
    wallet.available_balance = 50_000;
    const after = await start({ PAYMENTS_MCP_STATE: state });
    const answer = data(await after.call('send_payout', ngn('mcp-5')));
    // The POST left with nothing in doubt, so its refusal is its own: refused, nothing moved.
    expect(answer).toMatchObject({
      status: 'refused',
      error: { class: 'BadRequestError', status: 400 },
      note: expect.stringContaining('nothing moved'),
    });
    const steps = trail(state);
    const refusal = steps.findIndex((a) => a.kind === 'post' && a.status === 400);
    const proof = steps.findIndex((a) => a.kind === 'lookup' && a.detail === 'absent');
    expect(proof).toBeGreaterThanOrEqual(0);
    expect(proof).toBeLessThan(refusal);
    expect(paid('mcp-5')).toHaveLength(0);
    // Refused, it no longer holds the day's cap (kept in the state file): a payout of the whole cap fits.
    wallet.available_balance = funded;
    expect(data(await after.call('send_payout', ngn('mcp-5-next'))).status).toBe('created');
    expect(paid('mcp-5-next')).toHaveLength(1);
  });
});
