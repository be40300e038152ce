import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  CANARY_KEY,
  connect,
  data,
  envFor,
  everything,
  type Person,
  paid,
  type Session,
  stateFile,
  usd,
  useMockServer,
} from './helpers.js';

const mock = useMockServer();

/** A person at the host who answers every question the same way, and the questions they were asked. */
function person(answer: ElicitResult): { asked: ElicitRequest['params'][]; person: Person } {
  const asked: ElicitRequest['params'][] = [];
  return {
    asked,
    person: (question) => {
      asked.push(question);
      return answer;
    },
  };
}

async function withServer(host: Person | undefined, run: (s: Session) => Promise<void>, state = stateFile()) {
  const session = await connect(
    envFor(mock.server(), {
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000',
      PAYMENTS_MCP_CONFIRM_ABOVE: 'USD=100',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,20',
    }),
    ['--allow-payouts'],
    host,
  );
  try {
    await run(session);
  } finally {
    expect(session.stderr().includes(CANARY_KEY)).toBe(false);
    await session.close();
  }
}

const YES: ElicitResult = { action: 'accept', content: { confirm: true } };

describe('a person confirms a payout above the threshold, through MCP elicitation', () => {
  it('answered yes: the host is asked once, with the payout as the server words it, and the payout is sent once', async () => {
    const { asked, person: host } = person(YES);
    await withServer(host, async (s) => {
      const sent = await s.call('send_payout', usd('confirm-yes-1', '150.00'));
      expect(data(sent)).toMatchObject({ status: 'created', payout: { amount: { currency: 'USD' } } });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toContain(
        '150 USD to ADAEZE KEMI OKAFOR, account 0123456788 at Guaranty Trust Bank (bank code 000013), reference confirm-yes-1',
      );
      expect(asked[0]!.message).toContain('above 100 USD');
      expect(asked[0]).toMatchObject({ requestedSchema: { required: ['confirm'] } });
      // The same payout again is answered from the record: nobody is asked twice for one payout.
      expect(data(await s.call('send_payout', usd('confirm-yes-1', '150.00')))).toMatchObject({
        status: 'created',
        repeat: true,
      });
      // At or below the threshold, nobody is asked.
      expect(data(await s.call('send_payout', usd('confirm-yes-2', '100.00'))).status).toBe('created');
      expect(asked).toHaveLength(1);
      expect(everything(asked).includes(CANARY_KEY)).toBe(false);
    });
    expect(paid(mock.server(), 'confirm-yes-1')).toBe(1);
  });

  it.each([
    ['declined', { action: 'decline' }, 'declined it'],
    ['dismissed', { action: 'cancel' }, 'dismissed the question'],
    [
      'accepted without the box ticked',
      { action: 'accept', content: { confirm: false } },
      'answered without ticking',
    ],
  ] as const)('answered no (%s): refused, nothing sent or recorded', async (_, answer, said) => {
    const { asked, person: host } = person(answer as ElicitResult);
    const reference = `confirm-no-${answer.action}-${'content' in answer ? 'unticked' : 'plain'}`;
    await withServer(host, async (s) => {
      const result = await s.call('send_payout', usd(reference, '150.00'));
      expect(result.isError).toBe(true);
      expect(data(result).error).toMatchObject({
        class: 'PayoutRefusedError',
        guard: 'confirmation',
        message: expect.stringMatching(new RegExp(`the person ${said}.*; nothing was sent$`)),
      });
      expect(asked).toHaveLength(1);
      // Called again, the person is asked again: a no answers one question, and nothing was recorded.
      expect(data(await s.call('send_payout', usd(reference, '150.00'))).error.guard).toBe('confirmation');
      expect(asked).toHaveLength(2);
    });
    expect(paid(mock.server(), reference)).toBe(0);
  });

  it('on a host without elicitation: refused above the threshold, never a payout; below it, sent', async () => {
    await withServer(undefined, async (s) => {
      const result = await s.call('send_payout', usd('confirm-none-1', '100.01'));
      expect(data(result).error).toMatchObject({
        class: 'PayoutRefusedError',
        guard: 'confirmation',
        message: expect.stringContaining('this host cannot ask one (it does not offer MCP elicitation)'),
      });
      expect(data(await s.call('send_payout', usd('confirm-none-2', '100.00'))).status).toBe('created');
      const tool = (await s.client.listTools()).tools.find((t) => t.name === 'send_payout')!;
      expect(tool.description).toContain('a person confirms each payout above USD 100 through the host');
    });
    expect(paid(mock.server(), 'confirm-none-1')).toBe(0);
  });

  it('a host that fails to answer (its handler throws) is a refusal too', async () => {
    await withServer(
      () => {
        throw new Error('the host has no window to show it in');
      },
      async (s) => {
        const result = await s.call('send_payout', usd('confirm-broken-1', '150.00'));
        expect(data(result).error).toMatchObject({
          guard: 'confirmation',
          message: expect.stringContaining('the person could not be asked'),
        });
      },
    );
    expect(paid(mock.server(), 'confirm-broken-1')).toBe(0);
  });

  it('no answer within PAYMENTS_MCP_CONFIRM_TIMEOUT_MS is a refusal', async () => {
    let release = () => {};
    const never = new Promise<ElicitResult>((resolve) => {
      release = () => resolve({ action: 'accept', content: { confirm: true } });
    });
    const session = await connect(
      envFor(mock.server(), {
        PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000',
        PAYMENTS_MCP_CONFIRM_ABOVE: 'USD=100',
        PAYMENTS_MCP_CONFIRM_TIMEOUT_MS: '1',
      }),
      ['--allow-payouts'],
      () => never,
    );
    try {
      const result = await session.call('send_payout', usd('confirm-late-1', '150.00'));
      expect(data(result).error).toMatchObject({
        guard: 'confirmation',
        message: expect.stringMatching(/the person could not be asked \(.*timed out.*\); nothing was sent$/i),
      });
    } finally {
      // The answer that comes too late changes nothing.
      release();
      await session.close();
    }
    expect(paid(mock.server(), 'confirm-late-1')).toBe(0);
  });

  it('the thresholds survive a restart without the setting', async () => {
    const state = stateFile();
    await withServer(person(YES).person, async () => {}, state);
    const session = await connect(
      envFor(mock.server(), { PAYMENTS_MCP_STATE: state, PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000' }),
      ['--allow-payouts'],
    );
    try {
      expect(session.stderr()).toContain('above USD 100 through the host (kept in the state file)');
      expect(data(await session.call('send_payout', usd('confirm-kept-1', '150.00'))).error.guard).toBe(
        'confirmation',
      );
    } finally {
      await session.close();
    }
  });
});
