import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BENEFICIARY,
  CANARY_KEY,
  connect,
  data,
  envFor,
  paid,
  type Session,
  stateFile,
  usd,
  useMockServer,
} from './helpers.js';

const mock = useMockServer();
const dir = mkdtempSync(join(tmpdir(), 'mcp-allowlist-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The mock's name enquiry resolves any 10-digit number with an even digit sum; this one's holder: */
const OTHER = { ...BENEFICIARY, accountNumber: '0123456777' };

function start(state: string, settings: Record<string, string> = {}) {
  return connect(
    envFor(mock.server(), {
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000,NGN=50000',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,20',
      ...settings,
    }),
    ['--allow-payouts'],
  );
}

async function closing(session: Session, run: (s: Session) => Promise<void>): Promise<void> {
  try {
    await run(session);
  } finally {
    expect(session.stderr().includes(CANARY_KEY)).toBe(false);
    await session.close();
  }
}

const ngn = (externalReference: string, to: typeof BENEFICIARY, holder = to.accountName) => ({
  externalReference,
  amount: '100.00',
  currency: 'NGN',
  beneficiary: to,
  nameEnquiry: { accountNumber: to.accountNumber, bankCode: to.bankCode, accountName: holder },
});

describe('the beneficiary allowlist: only the accounts the operator names, under their holder, durable', () => {
  it('pays a listed account, refuses any other and a listed one under another name, sending nothing; a restart without the setting keeps it', async () => {
    const file = join(dir, 'allowed.txt');
    writeFileSync(
      file,
      '# accounts the agent may pay\n000013:0123456788:Adaeze  Kemi Okafor\n000014:0000000000:SOMEONE ELSE\n',
    );
    const state = stateFile();
    await closing(await start(state, { PAYMENTS_MCP_ALLOWLIST_FILE: file }), async (s) => {
      expect(s.stderr()).toContain('only 2 allowlisted account(s) can be paid');
      expect(data(await s.call('send_payout', usd('allow-1', '10.00'))).status).toBe('created');
      // Names are compared as people read them, so the case and spacing of the file do not matter.
      expect(data(await s.call('send_payout', ngn('allow-ngn-1', BENEFICIARY))).status).toBe('created');
      const stranger = await s.call('send_payout', usd('allow-2', '10.00', { beneficiary: OTHER }));
      expect(data(stranger).error).toMatchObject({
        class: 'PayoutRefusedError',
        guard: 'allowlist',
        message: expect.stringContaining("000013/0123456777 is not on this server's allowlist"),
      });
      const renamed = await s.call(
        'send_payout',
        usd('allow-3', '10.00', { beneficiary: { ...BENEFICIARY, accountName: 'EMEKA BELLO' } }),
      );
      expect(data(renamed).error).toMatchObject({
        guard: 'allowlist',
        message: expect.stringContaining(
          'on the allowlist as held by "Adaeze Kemi Okafor", not "EMEKA BELLO"',
        ),
      });
    });
    // The file is gone and the setting with it: the allowlist in the state file still stands.
    rmSync(file);
    await closing(await start(state), async (s) => {
      expect(s.stderr()).toContain('only 2 allowlisted account(s) can be paid (kept in the state file)');
      expect(
        data(await s.call('send_payout', usd('allow-4', '10.00', { beneficiary: OTHER }))).error.guard,
      ).toBe('allowlist');
      expect(data(await s.call('send_payout', usd('allow-5', '10.00'))).status).toBe('created');
    });
    // Set anew, it replaces the kept one; `off` removes it.
    await closing(
      await start(state, { PAYMENTS_MCP_ALLOWLIST: '000013:0123456777:ADAEZE KEMI OKAFOR' }),
      async (s) => {
        expect(s.stderr()).toMatch(/only 1 allowlisted account\(s\) can be paid\n/);
        expect(data(await s.call('send_payout', usd('allow-6', '10.00'))).error.guard).toBe('allowlist');
      },
    );
    await closing(await start(state, { PAYMENTS_MCP_ALLOWLIST: 'off' }), async (s) => {
      expect(data(await s.call('send_payout', usd('allow-7', '10.00', { beneficiary: OTHER }))).status).toBe(
        'created',
      );
    });
    for (const ref of ['allow-2', 'allow-3', 'allow-4', 'allow-6']) expect(paid(mock.server(), ref)).toBe(0);
  });

  it('is tied to the name enquiry: an NGN account listed under a name the bank does not give is never paid', async () => {
    // The operator listed 0123456777 as SOMEONE ELSE; the bank names its holder otherwise.
    const listed = { ...OTHER, accountName: 'SOMEONE ELSE' };
    const allowlist = `000013:${OTHER.accountNumber}:SOMEONE ELSE`;
    await closing(await start(stateFile(), { PAYMENTS_MCP_ALLOWLIST: allowlist }), async (s) => {
      // The agent's enquiry agrees with the allowlist, but the server asks the bank itself.
      const forged = data(await s.call('send_payout', ngn('allow-ngn-2', listed)));
      expect(forged.error).toMatchObject({
        class: 'BeneficiaryVerificationError',
        reason: 'name_mismatch',
        message: expect.stringContaining('the name enquiry gives for account 0123456777'),
      });
      expect(paid(mock.server(), 'allow-ngn-2')).toBe(0);
    });
  });
});
