import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BENEFICIARY,
  CANARY_KEY,
  connect,
  data,
  envFor,
  paid,
  type RecordingProxy,
  recordingProxy,
  type Session,
  useMockServer,
} from './helpers.js';

const mock = useMockServer();
let proxy: RecordingProxy;
beforeAll(async () => {
  proxy = await recordingProxy(mock.server());
});
afterAll(() => proxy?.close());

/** Every kind of padding an agent's copy and paste brings: Unicode spaces, a no-break space, a byte-order mark. */
const PADDED = {
  accountName: '\u2003ADAEZE KEMI OKAFOR\u200b',
  accountNumber: ' 0123456788\u00a0',
  bankName: '\tGuaranty Trust Bank\u3000',
  bankCode: '\ufeff000013 ',
  email: ' ada@example.com\u2028',
};

async function start(settings: Record<string, string>): Promise<Session> {
  return connect(
    {
      ...envFor(mock.server(), {
        PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000,NGN=50000',
        PAYMENTS_MCP_LISTING_LAG_MS: '0',
        ...settings,
      }),
      PAYMENTS_BASE_URL: proxy.baseUrl,
    },
    ['--allow-payouts'],
  );
}

const postedFor = (reference: string) =>
  proxy.posted().filter((body) => body.externalReference === reference || body.remark?.includes(reference));

describe('send_payout sends exactly what its guards approved', () => {
  it('trims every value before the allowlist and sends the trimmed values, byte for byte', async () => {
    const session = await start({ PAYMENTS_MCP_ALLOWLIST: '000013:0123456788:ADAEZE KEMI OKAFOR' });
    try {
      const usd = await session.call('send_payout', {
        externalReference: 'trim-usd-1',
        amount: '\u00a010.00 ',
        currency: ' usd\ufeff',
        beneficiary: PADDED,
      });
      expect(data(usd)).toMatchObject({ status: 'created' });
      const [sent] = postedFor('trim-usd-1');
      expect(sent).toMatchObject({ currency: 'USD', amount: 10 });
      expect(sent!.beneficiary).toEqual(BENEFICIARY);

      const ngn = await session.call('send_payout', {
        externalReference: 'trim-ngn-1',
        amount: '100.00',
        currency: 'NGN',
        beneficiary: PADDED,
        nameEnquiry: {
          accountNumber: '0123456788\ufeff',
          bankCode: '\u00a0000013',
          accountName: PADDED.accountName,
        },
      });
      expect(data(ngn)).toMatchObject({ status: 'created' });
      expect(postedFor('trim-ngn-1').map((body) => body.beneficiary)).toEqual([BENEFICIARY]);

      // The record holds what was sent: the same payout without the padding is the same payout, not sent again.
      const again = await session.call('send_payout', {
        externalReference: 'trim-usd-1',
        amount: '10.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
      });
      expect(data(again)).toMatchObject({ status: 'created', repeat: true });
      expect(postedFor('trim-usd-1')).toHaveLength(1);

      // Trimmed, an account off the allowlist is still off it, and nothing is sent.
      const stranger = await session.call('send_payout', {
        externalReference: 'trim-usd-2',
        amount: '10.00',
        currency: 'USD',
        beneficiary: { ...PADDED, accountNumber: '\u00a00123456777\ufeff' },
      });
      expect(data(stranger).error).toMatchObject({
        class: 'PayoutRefusedError',
        guard: 'allowlist',
        message: expect.stringContaining('account 000013/0123456777 is not on'),
      });
      expect(postedFor('trim-usd-2')).toHaveLength(0);
      expect(paid(mock.server(), 'trim-usd-2')).toBe(0);
    } finally {
      expect(session.stderr().includes(CANARY_KEY)).toBe(false);
      await session.close();
    }
  });

  it('sends the trimmed values without an allowlist too, and asks the person about them', async () => {
    const asked: string[] = [];
    const session = await connect(
      {
        ...envFor(mock.server(), {
          PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000',
          PAYMENTS_MCP_CONFIRM_ABOVE: 'USD=5',
          PAYMENTS_MCP_LISTING_LAG_MS: '0',
        }),
        PAYMENTS_BASE_URL: proxy.baseUrl,
      },
      ['--allow-payouts'],
      (request) => {
        asked.push(request.message);
        return { action: 'accept', content: { confirm: true } };
      },
    );
    try {
      const sent = await session.call('send_payout', {
        externalReference: 'trim-usd-3',
        amount: '10.00',
        currency: 'USD',
        beneficiary: PADDED,
      });
      expect(data(sent)).toMatchObject({ status: 'created' });
      expect(postedFor('trim-usd-3').map((body) => body.beneficiary)).toEqual([BENEFICIARY]);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain(
        'USD to ADAEZE KEMI OKAFOR, account 0123456788 at Guaranty Trust Bank (bank code 000013)',
      );
    } finally {
      await session.close();
    }
  });

  it('sends the reference exactly as given, so a padded one is refused, naming it', async () => {
    const session = await start({});
    try {
      const padded = await session.call('send_payout', {
        externalReference: 'trim-usd-4\u00a0',
        amount: '10.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
      });
      expect(data(padded).error).toMatchObject({
        class: 'RequestValidationError',
        issues: [{ path: ['externalReference'] }],
      });
      expect(proxy.posted().filter((body) => body.externalReference?.startsWith('trim-usd-4'))).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
