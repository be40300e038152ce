import { KNOWN_ACCOUNT_NUMBER, type MockServer, startMockServer } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remarkFor } from '../src/tools/payout.js';
import { CANARY_KEY, connect, data, envFor, type Session } from './helpers.js';

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

const ngn = (externalReference: string, amount = '1000.00') => ({
  externalReference,
  amount,
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  nameEnquiry: ENQUIRY,
});

type Row = Record<string, unknown>;

let server: MockServer;
let session: Session;
const rows = () => server.mock.account().transactions.map((t) => t.row as unknown as Row);
/** Withdrawals in the mock's ledger that send_payout made for this reference (NGN ones carry it in the remark). */
const paid = (reference: string) =>
  rows().filter(
    (r) =>
      r.transaction_type === 'withdrawal' &&
      (r.external_reference === reference || r.description === remarkFor(reference)),
  ).length;

beforeAll(async () => {
  // No dedupe by reference: as the spec says of NGN, the service does not recognise a repeated reference, so
  // only the MCP server stands between two parallel calls and two payouts.
  server = await startMockServer({
    apiKeys: [{ key: CANARY_KEY, tenant: true, allowlist: ['127.0.0.1'] }],
    dedupeByReference: false,
  });
  session = await connect(
    envFor(server, {
      PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000,USD=1000',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,50',
    }),
    ['--allow-payouts'],
  );
}, 60_000);
afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe('send_payout under parallel calls and look-alike rows', () => {
  it('two parallel calls with the same reference move money once, and both get the one outcome', async () => {
    const [a, b] = await Promise.all([
      session.call('send_payout', ngn('par-1')),
      session.call('send_payout', ngn('par-1')),
    ]);
    expect(paid('par-1')).toBe(1);
    expect(data(a).status).toBe('created');
    expect(data(b)).toEqual(data(a));
  }, 60_000);

  it('parallel calls whose details are equal once parsed are one payout: amount spelled "50.00", "050.00" and padded, names in any case, the default account named explicitly', async () => {
    const home = server.mock.state.mainAccountId;
    const named = await connect(
      envFor(server, { PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000', PAYMENTS_ACCOUNT_ID: home }),
      ['--allow-payouts'],
    );
    try {
      const spelled = [
        ngn('par-spelled-1', '50.00'),
        ngn('par-spelled-1', '050.00'),
        ngn('par-spelled-1', '\u00a050.00 '),
        {
          ...ngn('par-spelled-1', '50.00'),
          beneficiary: { ...BENEFICIARY, accountName: 'adaeze  kemi okafor' },
        },
        { ...ngn('par-spelled-1', '50.00'), accountId: home.toUpperCase() },
      ];
      const answers = await Promise.all(spelled.map((args) => named.call('send_payout', args)));
      expect(paid('par-spelled-1')).toBe(1);
      const ids = answers.map((a) => data(a).payout?.id);
      expect(answers.map((a) => data(a).status)).toEqual(Array(5).fill('created'));
      expect(new Set(ids).size).toBe(1);
    } finally {
      await named.close();
    }
  }, 60_000);

  it("without PAYMENTS_ACCOUNT_ID, the key's own account named explicitly is refused (it cannot be told from another), never paid twice", async () => {
    expect(data(await session.call('send_payout', ngn('par-home-1'))).status).toBe('created');
    const explicit = { ...ngn('par-home-1'), accountId: server.mock.state.mainAccountId };
    const again = await session.call('send_payout', explicit);
    expect(data(again).error).toMatchObject({
      class: 'PayoutRefusedError',
      message: expect.stringContaining('it differs in accountId'),
    });
    expect(paid('par-home-1')).toBe(1);
  }, 60_000);

  it('a parallel call with the same reference but other details is refused, and nothing more is sent', async () => {
    const [a, b] = await Promise.all([
      session.call('send_payout', ngn('par-2', '1000.00')),
      session.call('send_payout', ngn('par-2', '2000.00')),
    ]);
    expect(paid('par-2')).toBe(1);
    expect(data(a).status).toBe('created');
    expect(b.isError).toBe(true);
    expect(data(b).error).toMatchObject({
      class: 'PayoutRefusedError',
      message: expect.stringMatching(/it differs in amount.*nothing was sent for this call/),
    });
    // Once the first call is over, the same reference again is recognised (not sent a second time).
    const again = await session.call('send_payout', ngn('par-2', '1000.00'));
    expect(data(again)).toMatchObject({ status: 'created', repeat: true });
    expect(paid('par-2')).toBe(1);
  }, 60_000);

  it('a deposit that carries the same reference is not taken for the payout: the payout is sent', async () => {
    const weekAgo = Date.now() - 6 * 86_400_000;
    const deposit = rows().find(
      (r) =>
        r.transaction_type === 'deposit' &&
        r.status !== 'failed' &&
        typeof r.external_reference === 'string' &&
        Date.parse(String(r.created_at)) > weekAgo,
    );
    if (!deposit) throw new Error('no recent deposit in the seed');
    const reference = deposit.external_reference as string;
    // Never the deposit. (Not proven absent either: NGN withdrawals are listed under references the service
    // assigns, so one of them might be a payout sent under this reference outside this server.)
    const before = await session.call('find_payout_by_reference', { externalReference: reference });
    expect(data(before).found).not.toBe(true);
    const result = await session.call('send_payout', ngn(reference));
    expect(data(result).status).toBe('created');
    expect(paid(reference)).toBe(1);
    const after = await session.call('find_payout_by_reference', { externalReference: reference });
    expect(data(after).transaction).toMatchObject({ transaction_type: 'withdrawal' });
  }, 60_000);

  it('USD: a withdrawal listed without a reference does not stop a payout the record proves was never sent', async () => {
    const at = new Date().toISOString();
    const bare: Row = {
      id: '00000000-0000-4000-c000-000000000001',
      transaction_type: 'withdrawal',
      status: 'completed',
      description: 'listed without a reference',
      fee_amount: 1,
      source_amount: 2,
      destination_amount: 1,
      source_currency: 'USD',
      destination_currency: 'USD',
      created_at: at,
      updated_at: at,
    };
    const ledger = server.mock.account().transactions;
    ledger.push({ visibleAt: 0, row: bare as never });
    try {
      const result = await session.call('send_payout', {
        externalReference: 'usd-bare-1',
        amount: '10.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
      });
      expect(data(result).status).toBe('created');
      expect(paid('usd-bare-1')).toBe(1);
    } finally {
      ledger.splice(
        ledger.findIndex((t) => (t.row as unknown) === bare),
        1,
      );
    }
  }, 60_000);

  it("a reference this server's record does not know is sent, whatever an old listing row says (as documented); find_payout_by_reference with an earlier since finds the old one", async () => {
    const at = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const old: Row = {
      id: '00000000-0000-4000-c000-000000000002',
      transaction_type: 'withdrawal',
      status: 'completed',
      description: 'payments-service-mcp:old-1',
      external_reference: 'PO-OLD-1',
      fee_amount: 1,
      source_amount: 2,
      destination_amount: 1,
      source_currency: 'NGN',
      destination_currency: 'NGN',
      created_at: at,
      updated_at: at,
    };
    server.mock.account().transactions.push({ visibleAt: 0, row: old as never });
    const since = new Date(Date.now() - 11 * 86_400_000).toISOString();
    const found = await session.call('find_payout_by_reference', { externalReference: 'old-1', since });
    expect(data(found).found).toBe(true);
    const result = await session.call('send_payout', ngn('old-1'));
    expect(data(result).status).toBe('created');
    expect(paid('old-1')).toBe(2);
  }, 60_000);

  it('says in its description that the server records what it sent', async () => {
    const tool = (await session.client.listTools()).tools.find((t) => t.name === 'send_payout')!;
    expect(tool.description).toContain('The server records every payout it sends');
  });
});
