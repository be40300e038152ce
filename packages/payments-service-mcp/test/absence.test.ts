/**
 * Issue 29 through the MCP server over stdio (the official client, the real process): case 7 (the server
 * remembers what it sent, across an immediate retry and a restart), and the runs of cases 1, 4 and 5 that the
 * issue asks of the server: rows sharing a timestamp across a page boundary, a clock two days off, and a refusal
 * after a restart.
 */

import { DatabaseSync } from 'node:sqlite';
import { KNOWN_ACCOUNT_NUMBER, type MockServer, startMockServer } from 'payments-service-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { remarkFor } from '../src/tools/payout.js';
import { CANARY_KEY, connect, data, envFor, type Session, stateFile } from './helpers.js';

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
  amount: '1000',
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

describe('case 7: the server remembers what it sent', () => {
  it('a lost 2xx while the listing lags: neither an immediate retry nor a restarted server POSTs it again', async () => {
    const state = stateFile();
    // Rounds a second apart: each call answers while the payout is still being looked for.
    const slow = {
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_SETTLE_MS: '300',
      PAYMENTS_MCP_BACKOFF_MS: '1000,1000',
    };
    const first = await start(slow);
    server.mock.faults.bodyFault('cut', 'POST /payouts').listingLag(3_600_000);
    expect(data(await first.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'in_progress' });
    expect(data(await first.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'in_progress' });
    await first.close();
    const restarted = await start(slow);
    expect(data(await restarted.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'in_progress' });
    expect(paid('mcp-7')).toHaveLength(1);
    // The listing catches up: a call that waits for the next round answers the one payout.
    for (const t of server.mock.account().transactions) t.visibleAt = 0;
    server.mock.faults.listingLag(0);
    const patient = await start({ ...slow, PAYMENTS_MCP_SETTLE_MS: '10000' });
    expect(data(await patient.call('send_payout', ngn('mcp-7')))).toMatchObject({ status: 'recovered' });
    expect(paid('mcp-7')).toHaveLength(1);
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

describe('cases 1 and 4 through the server', () => {
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
    expect(answer.reason).toMatch(
      /clock the lookup window was read from is about 172800 s behind the service's/,
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

describe('case 5 through the server: a refusal after a restart is not "nothing moved"', () => {
  it('a payout sent before a crash, then refused for the balance it spent, is unknown with operatorMustCheck', async () => {
    const state = stateFile();
    const before = await start({ PAYMENTS_MCP_STATE: state });
    // The service takes the payout and never answers; the server dies with the POST in flight.
    server.mock.faults.hangAfterCommit('POST /payouts').listingLag(3_600_000);
    const lost = before.call('send_payout', ngn('mcp-5')).catch(() => undefined);
    await until(() => paid('mcp-5').length === 1);
    await before.close();
    await lost;
    // The dead server's lease is over; its payout took the balance another payout would need.
    const db = new DatabaseSync(state);
    // The key's own account's table (named by a digest of the key).
    const { name: table } = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'payout_outbox_key_*' AND name NOT GLOB '*_remarks'`,
      )
      .get() as { name: string };
    db.prepare(`UPDATE ${table} SET lease_until = 0`).run();
    db.close();
    server.mock.account().wallets.find((w) => w.currency === 'NGN')!.available_balance = 50_000;
    const after = await start({ PAYMENTS_MCP_STATE: state });
    const answer = await after.call('send_payout', ngn('mcp-5'));
    expect(data(answer)).toMatchObject({ status: 'unknown', operatorMustCheck: expect.any(String) });
    const trail = (
      new DatabaseSync(state).prepare(`SELECT attempts FROM ${table}`).get() as { attempts: string }
    ).attempts;
    expect(JSON.parse(trail)).toContainEqual(
      expect.objectContaining({ kind: 'post', status: 400, error: 'BadRequestError' }),
    );
    expect(paid('mcp-5')).toHaveLength(1);
  });
});
