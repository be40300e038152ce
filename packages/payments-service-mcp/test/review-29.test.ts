/**
 * Review of issues 29/30 (branch review-29): the MCP server over stdio (the official client, the real process).
 * Each failed on the reviewed code (a7783e5); the comments say how.
 */
import {
  DEFAULT_API_KEY,
  KNOWN_ACCOUNT_NUMBER,
  type MockServer,
  startMockServer,
} from 'payments-service-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, PayoutLookupIncompleteError } from '../../../src/index.js';
import { findByReference } from '../../../src/payouts/index.js';
import { CANARY_KEY, connect, data, envFor, type Session, stateFile, timePasses } from './helpers.js';

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
const usd = (externalReference: string) => ({
  externalReference,
  amount: '10.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
});

let server: MockServer;
const sessions: Session[] = [];
beforeAll(async () => {
  server = await startMockServer({
    apiKeys: [
      { key: CANARY_KEY, tenant: true, allowlist: ['127.0.0.1'] },
      { key: DEFAULT_API_KEY, allowlist: ['127.0.0.1'] },
    ],
    dedupeByReference: false,
    // No seeded history in the lookup window: only what a test puts there.
    historyEnd: '2020-01-01T00:00:00.000Z',
  });
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  server.mock.reset();
});
afterAll(() => server?.close());

async function start(extra: Record<string, string> = {}): Promise<Session> {
  const session = await connect(
    envFor(server, {
      PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000,USD=1000',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,20',
      PAYMENTS_MCP_BACKOFF_MS: '5,20',
      // The mock lists a payout at once: the listing lag is no test's subject here (absence.test.ts has it).
      PAYMENTS_MCP_LISTING_LAG_MS: '0',
      ...extra,
    }),
    ['--allow-payouts'],
  );
  sessions.push(session);
  return session;
}

/** The SDK on the same mock and account, as the merchant's own system (or the operator) would use it. */
const sdk = () => new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.baseUrl, logLevel: 'off' });

describe('find_payout_by_reference answers "found: false" where the SDK cannot prove absence', () => {
  // Failed on a7783e5: the tool passes `match: payoutMatch(ref)` for every currency. A `match` disables the SDK's identity gap
  // (NGN is listed under a reference the service assigns) and its doubts, and payoutMatch never returns a doubt. An
  // NGN payout the merchant's own system sent under this reference is listed under a PO-... reference with its own
  // remark: the tool says "found: false ... both listings read to their end", where the SDK's findByReference
  // (same listing) rightly says absence cannot be established.
  it('an NGN payout sent under the reference outside send_payout is not reported absent', async () => {
    const client = sdk();
    await client.payouts.create({
      amount: '1000.00',
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      remark: 'Invoice 900',
      externalReference: 'ngn-elsewhere',
    });
    const bySdk = await findByReference(client, 'ngn-elsewhere').catch((e: unknown) => e);
    expect(bySdk).toBeInstanceOf(PayoutLookupIncompleteError);
    const session = await start();
    const answer = await session.call('find_payout_by_reference', { externalReference: 'ngn-elsewhere' });
    expect(data(answer)).toMatchObject({ error: { class: 'PayoutLookupIncompleteError' } });
  });

  // Failed on a7783e5: the same for a USD withdrawal listed without a reference ("a row that might be it" for the SDK, which
  // then proves nothing): payoutMatch calls it "not the payout", and the tool answers found: false. The code's own
  // comment says payoutMatch is "only for service-assigned currencies"; the tool applies it to all.
  it('a withdrawal listed without a reference leaves the search unproven, not "found: false"', async () => {
    server.mock.transactions.add({
      source_currency: 'USD',
      destination_currency: 'USD',
      external_reference: undefined,
      description: 'Payout',
    });
    const bySdk = await findByReference(sdk(), 'usd-unlisted', { currency: 'USD' }).catch((e: unknown) => e);
    expect(bySdk).toBeInstanceOf(PayoutLookupIncompleteError);
    const session = await start();
    const answer = await session.call('find_payout_by_reference', { externalReference: 'usd-unlisted' });
    expect(data(answer)).toMatchObject({ error: { class: 'PayoutLookupIncompleteError' } });
  });
});

describe("find_payout_by_reference recognises send_payout's remark as the outbox keys it", () => {
  it('an NGN payout listed with its remark re-cased and re-spaced by the service is found', async () => {
    server.mock.transactions.add({
      transaction_type: 'withdrawal',
      description: 'PAYMENTS-SERVICE-MCP:inv-77 ',
      destination_amount: 100_000,
      source_currency: 'NGN',
      status: 'processing',
    });
    const session = await start();
    const answer = data(await session.call('find_payout_by_reference', { externalReference: 'inv-77' }));
    expect(answer).toMatchObject({ found: true });
  });
});

describe('send_payout: references are compared exactly, remark keys are not', () => {
  // Failed on a7783e5: NGN payouts are recorded under the remark `payments-service-mcp:<reference>`, and the outbox keeps remarks
  // unique by their key, which folds case. References are exact (the service and the SDK compare them byte for
  // byte), so "INV-1" and "inv-1" are two payouts; the second is refused "remark: ... give this payout a remark of
  // its own", advice the tool's input (which has no remark) cannot follow.
  it('two NGN payouts whose references differ only in case are both sent', async () => {
    const session = await start();
    expect(data(await session.call('send_payout', ngn('INV-1')))).toMatchObject({ status: 'created' });
    const second = data(await session.call('send_payout', ngn('inv-1')));
    expect(second).toMatchObject({ status: 'created' });
  });
});

describe('send_payout: the record is keyed by how the account was named, not by the account', () => {
  // Failed on a7783e5: with a tenant key and no PAYMENTS_ACCOUNT_ID, a call without accountId is recorded in table
  // `payout_outbox`, and a call naming the key's own account (a valid X-Account-Id: the tenant's own account is in
  // its tenancy) in `payout_outbox_<id>`. The server only folds accountId into "the server's own" when
  // PAYMENTS_ACCOUNT_ID is set. The retry of a created NGN payout that names the account finds no record, is POSTed
  // at once (a new record needs no lookup), and a second 1,000 NGN payout is sent: "never POSTed again, by any later
  // call" does not hold.
  it("a retry naming the key's own account is the same payout, never sent again", async () => {
    const session = await start();
    const own = server.mock.state.mainAccountId;
    expect(data(await session.call('send_payout', ngn('own-1')))).toMatchObject({ status: 'created' });
    const again = data(await session.call('send_payout', { ...ngn('own-1'), accountId: own }));
    const paid = server.mock
      .account()
      .transactions.filter((t) => t.row.description === 'payments-service-mcp:own-1');
    expect(paid).toHaveLength(1);
    // The server cannot learn which uuid is the key's own account (the spec shows no call that says), so it
    // cannot answer with the record either: it refuses, naming both, and nothing is sent.
    expect(again).toMatchObject({ error: { class: 'PayoutRefusedError', guard: 'reference' } });
    expect(again.error.message).toMatch(/recorded for the key's own account \(no accountId\), not account/);
  });
});

describe('send_payout: two servers on the default record file, each with its own default account', () => {
  // Failed on a7783e5: the default PAYMENTS_MCP_STATE is one file per user ($XDG_STATE_HOME/payments-service-mcp/payouts.db), and
  // each server records its default account's payouts in the same table, `payout_outbox`, whatever that account is.
  // Two servers of one operator (a tenant key, PAYMENTS_ACCOUNT_ID set to two sub-accounts, both on the default file
  // as the README's configuration shows) conflate their accounts: the second account's payout under a reference the
  // first account used is answered "sent earlier (this server's record); nothing new was sent" with the FIRST
  // account's payout, and is never sent: a lost payout reported paid.
  it("a payout of account B is not answered with account A's record", async () => {
    const shared = stateFile(); // stands for the default path both servers would use
    const a = await start({
      PAYMENTS_MCP_STATE: shared,
      PAYMENTS_ACCOUNT_ID: server.mock.state.businessAccountId,
    });
    const b = await start({
      PAYMENTS_MCP_STATE: shared,
      PAYMENTS_ACCOUNT_ID: server.mock.state.individualAccountId,
    });
    expect(data(await a.call('send_payout', usd('vendor-7')))).toMatchObject({ status: 'created' });
    const answer = data(await b.call('send_payout', usd('vendor-7')));
    // Each account has its own record now; a reference still names one payout across the accounts of one state
    // file, so B's call is refused, naming A's account, rather than answered with A's payout.
    expect(answer.repeat).toBeUndefined();
    expect(answer).toMatchObject({ error: { class: 'PayoutRefusedError', guard: 'reference' } });
    expect(answer.error.message).toContain(`recorded for account ${server.mock.state.businessAccountId}`);
    const inB = server.mock
      .account(server.mock.state.individualAccountId)
      .transactions.filter((t) => t.row.external_reference === 'vendor-7');
    expect(inB).toHaveLength(0);
  });
});

describe('send_payout: a repeat of a recorded payout is answered from the record, whatever the guards say now', () => {
  it('a payout sent under a cap since lowered is reported sent, not "nothing was sent"', async () => {
    const state = stateFile();
    const before = await start({ PAYMENTS_MCP_STATE: state });
    expect(data(await before.call('send_payout', usd('lowered-1')))).toMatchObject({ status: 'created' });
    await before.close();
    // The operator lowers the cap below the payout already sent, and the agent calls again with its reference.
    const after = await start({ PAYMENTS_MCP_STATE: state, PAYMENTS_MCP_PAYOUT_CAPS: 'USD=5' });
    const again = data(await after.call('send_payout', usd('lowered-1')));
    expect(again).toMatchObject({ status: 'created', repeat: true });
    // A new payout over the lowered cap is refused, and nothing is sent for it.
    const refused = data(await after.call('send_payout', usd('lowered-2')));
    expect(refused.error).toMatchObject({ class: 'PayoutRefusedError', guard: 'payout_cap' });
    const sent = (ref: string) =>
      server.mock
        .account()
        .transactions.filter(
          (t) => t.row.external_reference === ref && t.row.transaction_type === 'withdrawal',
        );
    expect([sent('lowered-1').length, sent('lowered-2').length]).toEqual([1, 0]);
  });
});

describe('send_payout: parallel calls on a payout that ended not_sent share one send', () => {
  // Failed on a7783e5: each call enqueues, sees the record `not_sent`, and calls `outbox.retry` before the in-flight map is
  // consulted. The first re-opens the row; the second's retry finds it `retry` and throws "is retry: retry applies
  // to not_sent or refused payouts only": an agent retrying with the same reference and details gets an error.
  // (The race depends on how the two requests interleave in the server; a few rounds make it show reliably.)
  it('two calls at once after not_sent both answer the one outcome', async () => {
    const state = stateFile();
    const session = await start({ PAYMENTS_MCP_STATE: state });
    const answers: unknown[] = [];
    for (let round = 1; round <= 6; round++) {
      const ref = `par-${round}`;
      server.mock.faults.next({ status: 503, match: 'POST /payouts', times: 3 });
      expect(data(await session.call('send_payout', usd(ref)))).toMatchObject({ status: 'not_sent' });
      // Sent again, it is looked up first once a POST made before could have ended: that time has passed.
      timePasses(state, 120_000);
      const pair = await Promise.all([
        session.call('send_payout', usd(ref)),
        session.call('send_payout', usd(ref)),
      ]);
      answers.push(...pair.map((answer) => data(answer).status ?? data(answer).error?.message));
      const sent = server.mock
        .account()
        .transactions.filter(
          (t) => t.row.external_reference === ref && t.row.transaction_type === 'withdrawal',
        );
      expect(sent).toHaveLength(1);
    }
    expect(answers).toEqual(Array(12).fill('created'));
  });
});
