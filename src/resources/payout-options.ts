import { invalid } from '../core/error.js';
import { REQUEST_OPTION_SHAPE, type RequestOptions } from '../internal/request-options.js';
import type { BankCodes } from '../payouts/beneficiary-check.js';
import type * as Send from '../payouts/send.js';
import { type BeneficiaryCheckOptions, checksBeneficiary } from '../rules/beneficiary-check.js';
import { aBoolean, anyValue, optionBag } from '../rules/option-bag.js';
import type { PayoutWire } from '../rules/payout.js';
import type { APIResource } from './resource.js';

/** Options of `payouts.check`. */
export interface PayoutCheckOptions {
  /**
   * Minor-unit digits of the currency, for checking the amount before sending. Needed only where the spec
   * does not state them (USDC, USDT): without it such an `amount` is sent as given and the service judges it,
   * and an `amountMinor` cannot be converted.
   */
  digits?: number | undefined;
}

/** Per-call options of `payouts.create` (`verifyBeneficiary`: see `BeneficiaryCheckOptions`). */
export interface PayoutCreateOptions extends RequestOptions, PayoutCheckOptions, BeneficiaryCheckOptions {}

/** Options of `payouts.verify`: those of `create` (its requests are GET /banks and POST /lookup). */
export interface PayoutVerifyOptions extends PayoutCreateOptions {}

// `digits` is checked by the body schema it builds, where its meaning (the currency's) is known.
const CHECK_SHAPE = { digits: anyValue };
const checkOptions = optionBag<PayoutCheckOptions>(CHECK_SHAPE);

/** The options of `create` and `verify`: the request options with the body's digits and the beneficiary check. */
export const createOptions = optionBag<PayoutCreateOptions>({
  ...REQUEST_OPTION_SHAPE,
  ...CHECK_SHAPE,
  verifyBeneficiary: aBoolean,
});

/** `check`'s options, read; `verifyBeneficiary` refused with a pointer to the method that takes it. */
export function readCheckOptions(options: PayoutCheckOptions | undefined): PayoutCheckOptions | undefined {
  if (options !== null && typeof options === 'object' && Object.hasOwn(options, 'verifyBeneficiary')) {
    throw invalid(
      ['options', 'verifyBeneficiary'],
      'is not taken by payouts.check, which sends nothing: payouts.verify checks the body and then the beneficiary',
    );
  }
  return checkOptions.read(options, 'payouts.check', ['options']);
}

/** A fresh reference for a payout. Persist it before sending, so a crash cannot lose it. */
export function createExternalReference(prefix = 'payout'): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}

/**
 * `verifyBeneficiary` for one client's payouts: whether a call checks (its own value, else `byDefault`), and the
 * check itself (`payouts/beneficiary-check.ts`, loaded lazily through `send`) with the bank codes this client keeps.
 */
export function beneficiaryCheck(
  client: APIResource['client'],
  byDefault: boolean,
  send: () => Promise<typeof Send>,
) {
  let banks: BankCodes | undefined;
  return async (wire: PayoutWire, call: unknown, options: RequestOptions | undefined): Promise<void> => {
    if (!checksBeneficiary(call, byDefault)) return;
    const { BankCodes, checkBeneficiary } = await send();
    banks ??= new BankCodes(() => client.banks.list());
    await checkBeneficiary({ banks, lookup: (params, o) => client.banks.lookup(params, o) }, wire, options);
  };
}
