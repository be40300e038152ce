/**
 * The outbox's options are read once per call by one declared bag: every value given is checked before anything
 * is recorded or claimed, named by its field in the words the outbox has always used, and a misspelt key of a bag
 * it holds (`backoff`, `hooks`) is refused as any other. What has always been taken still is.
 */
import { describe, expect, it } from 'vitest';
import { PaymentsClient, RequestValidationError, UnknownOptionError } from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore, type PayoutOutboxOptions } from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection, thrownBy } from '../helpers/fixtures.js';

function setup() {
  const mock = createPaymentsMock();
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch });
  const store = memoryOutboxStore();
  const make = (options: Partial<PayoutOutboxOptions>) => createPayoutOutbox({ client, store, ...options });
  return { client, store, make, outbox: make({ timeout: 2000, visibilityWaits: [0] }) };
}

/** The field and message of the refusal `attempt` throws or rejects with. */
async function refusal(attempt: () => unknown) {
  const error = await thrownBy(attempt);
  expect(error).toBeInstanceOf(RequestValidationError);
  const { field, issues } = error as RequestValidationError;
  return { field, message: issues[0]?.message, error };
}

const usd = { amount: '25.00', currency: 'USD', beneficiary: BENEFICIARY };

describe('createPayoutOutbox', () => {
  it('checks each value given, naming it as it always did', async () => {
    const { make } = setup();
    const cases: [Partial<PayoutOutboxOptions>, string, string][] = [
      [{ tracking: { everyMs: -1 } }, 'tracking.everyMs', 'must be a whole number from 0 to 2147483647'],
      [{ tracking: { final: [] } }, 'tracking.final', 'must be a non-empty list of statuses'],
      [{ visibilityWaits: [0, 1.5] }, 'visibilityWaits.1', 'must be a whole number from 0 to 2147483647'],
      [{ visibilityWaits: [] }, 'visibilityWaits', 'must be a non-empty list of ms'],
      [{ timeout: 0 }, 'timeout', 'must be a whole number from 1 to 2147483647'],
      [{ listingLagMs: 86_400_001 }, 'listingLagMs', 'must be a whole number from 0 to 86400000'],
      [{ maxSends: 0 }, 'maxSends', 'must be a whole number from 1 to 2147483647'],
      [{ onFinal: 'log' as never }, 'onFinal', 'must be a function'],
      // Rules that read another key, checked after the read in the same words.
      [
        { timeout: 1000, visibilityWaits: [0], leaseMs: 100 },
        'leaseMs',
        'must be a whole number from 3000 to 2147483647',
      ],
      [
        { backoff: { baseMs: 10, maxMs: 5 } },
        'backoff.maxMs',
        'must be a whole number from 10 to 2147483647',
      ],
      // Values once taken unchecked, which would have failed later or meant nothing.
      [{ owner: 7 as never }, 'owner', 'must be a string'],
      [{ hooks: { afterClaim: 'trace' as never } }, 'hooks.afterClaim', 'must be a function'],
      [{ backoff: { baseMs: -5 } }, 'backoff.baseMs', 'must be a whole number from 0 to 2147483647'],
    ];
    for (const [options, field, message] of cases) {
      expect(await refusal(() => make(options)), field).toMatchObject({ field, message });
    }
  });

  it('refuses a misspelt key of backoff and hooks, as of tracking', async () => {
    const { make } = setup();
    for (const [options, message] of [
      [{ backoff: { maxMS: 0 } }, 'Unknown option maxMS for createPayoutOutbox backoff: did you mean maxMs?'],
      [
        { hooks: { afterclaim: () => {} } },
        'Unknown option afterclaim for createPayoutOutbox hooks: did you mean afterClaim?',
      ],
      [
        { tracking: { everyMS: 1 } },
        'Unknown option everyMS for createPayoutOutbox tracking: did you mean everyMs?',
      ],
    ] as const) {
      const error = await thrownBy(() => make(options as never));
      expect(error).toBeInstanceOf(UnknownOptionError);
      expect((error as Error).message).toBe(message);
    }
  });

  it('still takes null for a value with a default, and every documented option', () => {
    const { make } = setup();
    expect(() =>
      make({ timeout: null, visibilityWaits: null, leaseMs: null, hooks: null, tracking: null } as never),
    ).not.toThrow();
    expect(() =>
      make({
        owner: 'worker-1',
        timeout: 2000,
        visibilityWaits: [0, 10],
        leaseMs: 60_000,
        listingLagMs: 0,
        maxSends: 2,
        maxLookups: 2,
        maxLookupPages: 5,
        backoff: { baseMs: 0, maxMs: 0 },
        hooks: { afterClaim: () => {}, afterRound: () => {} },
        tracking: {
          everyMs: 0,
          followForMs: 1,
          afterFinalMs: 0,
          final: ['completed'],
          windowMarginMs: 0,
          maxLookupPages: 1,
        },
        onStatus: () => {},
        onFinal: () => {},
        onUetr: () => {},
      }),
    ).not.toThrow();
  });

  it('uses the store it is given, not a copy: a method replaced later is the one called', async () => {
    const { store, outbox } = setup();
    const claims: string[] = [];
    const claim = store.claim;
    store.claim = (...args) => {
      claims.push(args[0]);
      return claim(...args);
    };
    await outbox.work({ until: 'drained' });
    expect(claims.length).toBeGreaterThan(0);
  });
});

describe("the outbox's calls", () => {
  it('check each value given before anything is claimed or recorded', async () => {
    const { outbox } = setup();
    await outbox.enqueue(usd);
    const cases: [() => unknown, string, string][] = [
      [() => outbox.work({ signal: 'stop' as never }), 'signal', 'must be an AbortSignal'],
      [() => outbox.work({ concurrency: 0 }), 'concurrency', 'must be a whole number from 1 to 1000'],
      [() => outbox.work({ until: 'done' as never }), 'until', "must be 'drained'"],
      [() => outbox.work({ onError: 'log' as never }), 'onError', 'must be a function'],
      [() => outbox.list({ limit: 10_001 }), 'limit', 'must be a whole number from 1 to 10000'],
      [() => outbox.list({ dueBefore: new Date(Number.NaN) }), 'dueBefore', 'must be a valid Date'],
      [() => outbox.list({ status: 3 as never }), 'status', 'must be a string'],
      [() => outbox.list({ due: 'yes' as never }), 'due', 'must be true or false'],
      [
        () => outbox.archive({ before: new Date(), limit: 0 }),
        'limit',
        'must be a whole number from 1 to 10000',
      ],
      [() => outbox.retry('r-1', { by: 5 as never }), 'by', 'must be a string'],
      [() => outbox.resolve('r-1', {} as never), 'outcome', "must be 'exists' or 'absent'"],
      [
        () => outbox.enqueue(usd, { verifyBeneficiary: 'yes' as never }),
        'options.verifyBeneficiary',
        'must be true or false',
      ],
    ];
    for (const [attempt, field, message] of cases) {
      expect(await refusal(attempt), field).toMatchObject({ field, message });
    }
    expect(await outbox.list()).toMatchObject([{ state: 'pending', sends: 0 }]);
  });

  it("refuse an operator's verb an option it does not take", async () => {
    const { outbox } = setup();
    const error = await rejection(outbox.retry('r-1', { outcome: 'exists' } as never));
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect((error as Error).message).toBe('Unknown option outcome for outbox.retry');
  });
});
