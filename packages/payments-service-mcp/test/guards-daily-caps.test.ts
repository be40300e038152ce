import { describe, expect, it } from 'vitest';
import {
  CANARY_KEY,
  connect,
  countPosts,
  data,
  envFor,
  everything,
  paid,
  type Session,
  stateFile,
  usd,
  useMockServer,
} from './helpers.js';

const mock = useMockServer();

/** A payouts server on `state`, with these settings on top of per-payout caps in USD, NGN and XAF. */
function start(state: string, settings: Record<string, string> = {}) {
  return connect(
    envFor(mock.server(), {
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000,NGN=50000,XAF=100000',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,20',
      PAYMENTS_MCP_BACKOFF_MS: '5,20',
      // The mock lists a payout at once: a doubt is settled by the first lookup, unless a test sets a lag.
      PAYMENTS_MCP_LISTING_LAG_MS: '0',
      ...settings,
    }),
    ['--allow-payouts'],
  );
}

async function closing<T>(session: Session, run: (s: Session) => Promise<T>): Promise<T> {
  try {
    return await run(session);
  } finally {
    expect(session.stderr().includes(CANARY_KEY)).toBe(false);
    await session.close();
  }
}

describe('daily caps: per currency, per UTC day, durable in the state file', () => {
  it('refuses a payout that would pass the day, answers a repeat from the record, and remembers the day across restarts', async () => {
    const state = stateFile();
    const caps = { PAYMENTS_MCP_DAILY_CAPS: 'USD=1500' };
    await closing(await start(state, caps), async (s) => {
      expect(s.stderr()).toContain('guards: daily caps per UTC day, all accounts together: USD 1500');
      expect(data(await s.call('send_payout', usd('day-1', '1000.00'))).status).toBe('created');
      const over = await s.call('send_payout', usd('day-2', '500.01'));
      expect(over.isError).toBe(true);
      expect(data(over).error).toMatchObject({
        class: 'PayoutRefusedError',
        guard: 'daily_cap',
        message: expect.stringMatching(
          /daily cap of 1500 USD \(UTC \d{4}-\d\d-\d\d: 1000 recorded, 500 left\)/,
        ),
      });
      expect(paid(mock.server(), 'day-2')).toBe(0);
      // The same payout again is not a new one: answered from the record, whatever the day's total.
      expect(data(await s.call('send_payout', usd('day-1', '1000.00')))).toMatchObject({
        status: 'created',
        repeat: true,
      });
      // Exactly up to the cap, in exact decimals.
      expect(data(await s.call('send_payout', usd('day-3', '499.99'))).status).toBe('created');
      expect(data(await s.call('send_payout', usd('day-4', '0.02'))).error.guard).toBe('daily_cap');
    });
    // A restart with the same settings: the day's payouts are in the state file.
    await closing(await start(state, caps), async (s) => {
      const after = data(await s.call('send_payout', usd('day-5', '0.02')));
      expect(after.error).toMatchObject({
        guard: 'daily_cap',
        message: expect.stringContaining('1499.99 recorded'),
      });
    });
    // A restart without the setting: the cap stands (only `off` removes a guard), and the start-up line says so.
    await closing(await start(state), async (s) => {
      expect(s.stderr()).toContain('USD 1500 (kept in the state file)');
      expect(data(await s.call('send_payout', usd('day-6', '0.02'))).error.guard).toBe('daily_cap');
      const tool = (await s.client.listTools()).tools.find((t) => t.name === 'send_payout')!;
      expect(tool.description).toContain('daily caps per UTC day, all accounts together: USD 1500');
    });
    await closing(await start(state, { PAYMENTS_MCP_DAILY_CAPS: 'off' }), async (s) => {
      expect(s.stderr()).not.toContain('guards:');
      expect(data(await s.call('send_payout', usd('day-7', '0.02'))).status).toBe('created');
    });
    for (const ref of ['day-2', 'day-4', 'day-5', 'day-6']) expect(paid(mock.server(), ref)).toBe(0);
    expect(paid(mock.server(), 'day-1')).toBe(1);
  });

  it('lets only one of two parallel payouts fit under the last of the day', async () => {
    await closing(await start(stateFile(), { PAYMENTS_MCP_DAILY_CAPS: 'USD=1000' }), async (s) => {
      const answers = await Promise.all([
        s.call('send_payout', usd('par-day-1', '600.00')),
        s.call('send_payout', usd('par-day-2', '600.00')),
      ]);
      const statuses = answers.map((a) => data(a).status ?? data(a).error.guard).sort();
      expect(statuses).toEqual(['created', 'daily_cap']);
      expect(paid(mock.server(), 'par-day-1') + paid(mock.server(), 'par-day-2')).toBe(1);
    });
  });

  it('refuses a currency the daily caps leave out, and stops counting a payout that moved nothing', async () => {
    await closing(await start(stateFile(), { PAYMENTS_MCP_DAILY_CAPS: 'USD=100' }), async (s) => {
      const xaf = data(await s.call('send_payout', { ...usd('day-xaf-1', '10'), currency: 'XAF' }));
      expect(xaf.error).toMatchObject({
        guard: 'daily_cap',
        message: expect.stringContaining('XAF have no daily cap'),
      });
      const faults = mock.server().mock.faults;
      // Three 503s, each proven absent by a lookup before the next POST: nothing moved.
      faults.next({ status: 503, match: 'POST /payouts', times: 3 });
      expect(data(await s.call('send_payout', usd('day-503', '100.00'))).status).toBe('not_sent');
      // Nothing moved, so the whole cap is left for another payout.
      expect(data(await s.call('send_payout', usd('day-after-503', '100.00'))).status).toBe('created');
      // The not_sent payout called again is sent again only if the day has room: it has none now.
      expect(data(await s.call('send_payout', usd('day-503', '100.00'))).error.guard).toBe('daily_cap');
      expect(paid(mock.server(), 'day-503')).toBe(0);
    });
  });

  it('a payout in doubt keeps its reservation: a 503 after the service took it, while the listing lags', async () => {
    const faults = mock.server().mock.faults;
    const settings = {
      PAYMENTS_MCP_DAILY_CAPS: 'USD=100',
      // The listing lag is the subject: the server assumes an hour, and the call answers before it.
      PAYMENTS_MCP_LISTING_LAG_MS: '3600000',
      PAYMENTS_MCP_SETTLE_MS: '300',
    };
    try {
      await closing(await start(stateFile(), settings), async (s) => {
        // USD references are deduplicated by the service, so the POSTs are counted, not only the ledger.
        const posts = countPosts(mock.server());
        faults.answerAfterCommit({ status: 503 }).listingLag(3_600_000);
        const doubt = data(await s.call('send_payout', usd('day-doubt', '100.00')));
        expect(doubt).toMatchObject({ status: 'in_progress', state: 'sending' });
        expect(doubt.reason).toMatch(/POST 1 answered 503/);
        // The money may have moved: the day's cap still holds it, so nothing else fits.
        const other = await s.call('send_payout', usd('day-doubt-2', '1.00'));
        expect(data(other).error).toMatchObject({
          guard: 'daily_cap',
          message: expect.stringContaining('100 recorded'),
        });
        // Called again: still in doubt, and never POSTed again before a lookup proves it absent.
        expect(data(await s.call('send_payout', usd('day-doubt', '100.00'))).status).toBe('in_progress');
        expect(posts()).toBe(1);
        expect(paid(mock.server(), 'day-doubt')).toBe(1);
        expect(paid(mock.server(), 'day-doubt-2')).toBe(0);
      });
    } finally {
      faults.clear();
    }
  });

  it('an unknown payout keeps its reservation; a refused one releases it', async () => {
    const faults = mock.server().mock.faults;
    try {
      await closing(await start(stateFile(), { PAYMENTS_MCP_DAILY_CAPS: 'USD=100' }), async (s) => {
        // Taken, its 2xx cut, never listed: unknown, and it may have moved.
        faults.bodyFault('cut', 'POST /payouts').listingLag(3_600_000);
        expect(data(await s.call('send_payout', usd('day-unknown', '60.00'))).status).toBe('unknown');
        faults.clear();
        expect(data(await s.call('send_payout', usd('day-after-unknown', '41.00'))).error.guard).toBe(
          'daily_cap',
        );
        // Refused (a 400 to a POST sent with nothing in doubt): nothing moved, and the 40 left fits again.
        faults.next({ status: 400, match: 'POST /payouts' });
        expect(data(await s.call('send_payout', usd('day-refused', '40.00'))).status).toBe('refused');
        expect(data(await s.call('send_payout', usd('day-after-refused', '40.00'))).status).toBe('created');
        expect(paid(mock.server(), 'day-unknown')).toBe(1);
        expect(paid(mock.server(), 'day-refused')).toBe(0);
      });
    } finally {
      faults.clear();
    }
  });

  it('keeps a reference to one account: the same reference on another account is refused, naming accountId', async () => {
    const other = mock.server().mock.state.individualAccountId;
    await closing(await start(stateFile()), async (s) => {
      expect(data(await s.call('send_payout', usd('acct-1', '10.00'))).status).toBe('created');
      const elsewhere = await s.call('send_payout', usd('acct-1', '10.00', { accountId: other }));
      expect(data(elsewhere).error).toMatchObject({
        class: 'PayoutRefusedError',
        guard: 'reference',
        message: expect.stringContaining('it differs in accountId'),
      });
      expect(everything(elsewhere).includes(CANARY_KEY)).toBe(false);
      const ledger = mock.server().mock.account(other).transactions;
      expect(ledger.filter((t) => t.row.external_reference === 'acct-1')).toHaveLength(0);
    });
  });
});
