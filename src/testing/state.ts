import type { PayoutLifecycle } from './lifecycle.js';
import type { MockApiKey, MockSettings, PaymentsMockOptions } from './options.js';
import { type Rng, rngFor } from './random.js';
import { seedHistory, seedVirtualAccounts } from './seed/history.js';
import { currencyList } from './seed/reference.js';
import type { MockAccount, MockState } from './types.js';

/** The key the mock accepts by default: a tenant key allowlisted for 127.0.0.1. */
export const DEFAULT_API_KEY = 'sk_test_mock';
/**
 * A fixed newest moment for the seeded history: pass it as `historyEnd` for the same timestamps on every run.
 * Without `historyEnd` the history ends at the service's clock (`mock.now()`) when it is created or reset.
 */
export const FIXED_HISTORY_END = '2026-01-01T00:00:00.000Z';

interface AccountSeed extends Pick<MockAccount, 'type' | 'name' | 'tenantId'> {
  id?: string;
  /** Balances in minor units by currency; missing currencies start at 0. */
  balances?: Record<string, number>;
  history?: number;
  record?: Record<string, unknown>;
}

/** What every account is created with: the clock, the end of its history, the feature and the currencies. */
interface AccountContext {
  now: number;
  historyEnd: number;
  payerNamesEnabled: boolean;
  /** Codes of the currencies the mock lists: a wallet each. */
  currencies: readonly string[];
}

/**
 * The currencies the mock first listed. Their wallets' ids are drawn from the seed in this order whether they
 * are listed or not, and listed first, so a currency added to the list moves no seeded id or wallet.
 */
const FIRST_CURRENCIES = ['NGN', 'USD', 'USDC', 'USDT', 'XAF'];

/** Creates an account with wallets, funding details and (optionally) seeded history. */
export function createAccount(rng: Rng, seed: AccountSeed, context: AccountContext): MockAccount {
  const id = seed.id ?? rng.uuid();
  const va = seedVirtualAccounts(rng, seed.name);
  const drawn = new Map(FIRST_CURRENCIES.map((code) => [code, rng.uuid()]));
  const listed = context.currencies;
  const codes = [
    ...FIRST_CURRENCIES.filter((code) => listed.includes(code)),
    ...listed.filter((code) => !FIRST_CURRENCIES.includes(code)),
  ];
  const wallets = codes.map((currency) => {
    const balance = seed.balances?.[currency] ?? 0;
    const walletId = drawn.get(currency) ?? rngFor(0, `wallet:${id}:${currency}`).uuid();
    return { id: walletId, currency, balance, available_balance: balance };
  });
  return {
    id,
    type: seed.type,
    name: seed.name,
    ...(seed.tenantId ? { tenantId: seed.tenantId } : {}),
    record: {
      ...seed.record,
      id,
      type: seed.type,
      name: seed.name,
      created_at: new Date(seed.history ? context.historyEnd - 200 * 86_400_000 : context.now).toISOString(),
    },
    payerNamesEnabled: context.payerNamesEnabled,
    wallets,
    transactions: seed.history ? seedHistory(rng, seed.history, context.historyEnd, va) : [],
    payouts: new Map(),
    beneficiaries: new Map(),
    payerNames: new Map(),
    kycLinks: [],
    funding: {
      bank_name: va.NGN.bank_name!,
      account_number: va.NGN.account_number!,
      account_name: seed.name,
    },
  };
}

/** The main account: a business and white-label tenant with 60 transactions and funded wallets. */
const MAIN_SEED: AccountSeed = {
  type: 'business',
  name: 'Acme Trading Ltd',
  history: 60,
  balances: {
    NGN: 2_500_000_000,
    USD: 12_500_000,
    USDC: 5_000_000,
    USDT: 3_000_000,
    XAF: 90_000_000,
    KES: 50_000_000,
    GHS: 10_000_000,
  },
  record: { email: 'finance@acme.example' },
};

/** The two accounts in its tenancy: an individual (12 transactions) and a business (24 transactions). */
const TENANT_SEEDS: readonly [AccountSeed, AccountSeed] = [
  {
    type: 'individual',
    name: 'Ada Obi',
    history: 12,
    balances: { NGN: 50_000_000, USD: 250_000 },
    record: { email: 'ada.obi@example.com' },
  },
  {
    type: 'business',
    name: 'Kola Foods Ltd',
    history: 24,
    balances: { NGN: 800_000_000, USD: 1_000_000 },
    record: { email: 'accounts@kolafoods.example' },
  },
];

/** Seeds the main account and the two accounts in its tenancy, in that order (the ids depend on it). */
export function createState(rng: Rng, options: PaymentsMockOptions, now: number): MockState {
  // Relative to the service's clock by default, so "last month" has rows; the seed fixes every offset from that end.
  const historyEnd = options.historyEnd === undefined ? now : new Date(options.historyEnd).getTime();
  if (!Number.isFinite(historyEnd)) throw new TypeError(`historyEnd is not a date: ${options.historyEnd}`);
  const currencies = currencyList(options.supportedCurrencies);
  const codes = currencies.map((c) => c.code);
  const context = {
    now,
    historyEnd,
    payerNamesEnabled: options.payerNamesEnabled ?? true,
    currencies: codes,
  };
  const main = createAccount(rng, MAIN_SEED, context);
  const [individual, business] = TENANT_SEEDS.map((seed) =>
    createAccount(rng, { ...seed, tenantId: main.id }, context),
  ) as [MockAccount, MockAccount];
  const accounts = new Map([main, individual, business].map((a) => [a.id, a]));
  const requested = options.apiKeys ?? [{ key: DEFAULT_API_KEY, tenant: true, allowlist: ['127.0.0.1'] }];
  const apiKeys: MockApiKey[] = requested.map((k) => {
    const accountId = k.accountId ?? main.id;
    if (!accounts.has(accountId)) {
      const name = `Business ${accountId.slice(0, 8)}`;
      accounts.set(accountId, createAccount(rng, { id: accountId, type: 'business', name }, context));
    }
    // Absent switches stay absent (auth reads them as off); the allowlist is copied, so a test editing
    // `mock.state` leaves the options, and so the next `reset()`, alone.
    return { ...k, accountId, allowlist: [...(k.allowlist ?? [])] };
  });
  return {
    currencies,
    mainAccountId: main.id,
    individualAccountId: individual.id,
    businessAccountId: business.id,
    accounts,
    apiKeys,
  };
}

/** A copy of a lifecycle option, its currency list too, so live edits leave the options alone. */
function copyLifecycle({ uetrCurrencies, ...rest }: PayoutLifecycle): PayoutLifecycle {
  return { ...rest, ...(uetrCurrencies ? { uetrCurrencies: [...uetrCurrencies] } : {}) };
}

/** The live settings an options object starts with (and `reset()` restores). */
export function settingsFrom(options: PaymentsMockOptions): MockSettings {
  return {
    sandbox: options.sandbox ?? false,
    envelope: options.envelope ?? 'current',
    dedupeByReference: options.dedupeByReference ?? true,
    assignNgnReferences: options.assignNgnReferences ?? true,
    // Copied, so a test editing the live list leaves the options, and so the next `reset()`, alone.
    serviceAssignedCurrencies: [...(options.serviceAssignedCurrencies ?? [])],
    beneficiaryGracePeriod: options.beneficiaryGracePeriod ?? true,
    documentsRequired: options.documentsRequired ?? false,
    rateLimit: options.rateLimit,
    clockOffsetMs: options.clockOffsetMs ?? 0,
    rowClockOffsetMs: options.rowClockOffsetMs ?? 0,
    lifecycle: options.lifecycle && copyLifecycle(options.lifecycle),
    invented: {
      ...options.invented,
      ...(options.invented?.listedMinorDigits && {
        listedMinorDigits: { ...options.invented.listedMinorDigits },
      }),
    },
  };
}
