/** The mock's option bags, each declared once (`optionBag`); not part of the entry's types. */
import { anyValue, type OptionBag, type OptionShape, optionBag } from '../rules/option-bag.js';
import type { InventedBehaviour } from './invented.js';
import type { PayoutLifecycle } from './lifecycle.js';
import type { MockApiKey, PaymentsMockOptions, RateLimit } from './options.js';

/**
 * The option bags of the mock, each declared once. Their values are read where they are used (the seed, the
 * state, the lifecycle's schedule), so each key takes any value here: what a bag adds is its keys.
 */

/** `createPaymentsMock`'s keys; `rateLimit`, `invented`, `lifecycle` and each of `apiKeys` are bags of their own. */
export const MOCK_OPTION_SHAPE: OptionShape<PaymentsMockOptions> = {
  baseUrl: anyValue,
  apiKeys: anyValue,
  seed: anyValue,
  supportedCurrencies: anyValue,
  sandbox: anyValue,
  envelope: anyValue,
  dedupeByReference: anyValue,
  assignNgnReferences: anyValue,
  serviceAssignedCurrencies: anyValue,
  beneficiaryGracePeriod: anyValue,
  payerNamesEnabled: anyValue,
  documentsRequired: anyValue,
  rateLimit: anyValue,
  invented: anyValue,
  historyEnd: anyValue,
  clockOffsetMs: anyValue,
  rowClockOffsetMs: anyValue,
  lifecycle: anyValue,
};
const mockOptions = optionBag<PaymentsMockOptions>(MOCK_OPTION_SHAPE);
const apiKeyOptions = optionBag<MockApiKey>({
  key: anyValue,
  accountId: anyValue,
  tenant: anyValue,
  allowlist: anyValue,
  apiAccess: anyValue,
  restricted: anyValue,
  deleted: anyValue,
});
const rateLimitOptions = optionBag<RateLimit>({ requests: anyValue, perMs: anyValue });
const inventedOptions = optionBag<InventedBehaviour>({
  getPayerName: anyValue,
  hideArchivedPayerNames: anyValue,
  deprecationWarning: anyValue,
  rejectReversedDateRange: anyValue,
  pageSizeLimit: anyValue,
  normaliseRemark: anyValue,
  unstableTieOrder: anyValue,
  dateRangeField: anyValue,
  listedRemarkLength: anyValue,
  netOfFee: anyValue,
  listedMinorDigits: anyValue,
});
const lifecycleOptions = optionBag<PayoutLifecycle>({
  completeAfterMs: anyValue,
  failureShare: anyValue,
  refundShare: anyValue,
  refundAfterMs: anyValue,
  uetrAfterMs: anyValue,
  imadShare: anyValue,
  uetrCurrencies: anyValue,
  backdateMs: anyValue,
});

/**
 * The mock's options read once (`optionBag`): a key they do not take, in them or in a bag they hold, is refused
 * with a did-you-mean, for a misspelt switch (`lifecyle`) would otherwise leave the mock behaving as the default
 * and the test proving nothing. `bag`: the options of `startMockServer`, which takes `port` and `mock` besides.
 */
export function readMockOptions<T extends PaymentsMockOptions>(
  options: T | undefined,
  name: string,
  bag: OptionBag<T> = mockOptions as OptionBag<T>,
): T {
  const given = bag.read(options, name) ?? ({} as T);
  const inner = (key: string) => [`${name} ${key}`, [key]] as const;
  // `null` stays as it is: a bag that is absent.
  if (given.rateLimit != null)
    given.rateLimit = rateLimitOptions.read(given.rateLimit, ...inner('rateLimit'));
  if (given.invented != null) given.invented = inventedOptions.read(given.invented, ...inner('invented'));
  if (given.lifecycle != null)
    given.lifecycle = lifecycleOptions.read(given.lifecycle, ...inner('lifecycle'));
  if (Array.isArray(given.apiKeys)) {
    given.apiKeys = given.apiKeys.map(
      (key, i) => apiKeyOptions.read(key, `${name} apiKeys[${i}]`, ['apiKeys', String(i)]) ?? key,
    );
  }
  return given;
}
