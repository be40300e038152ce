import type { FieldIssue } from '../../core/error.js';
import { toMinorUnits } from '../../rules/currency.js';
import { PAYOUT_BENEFICIARY_FIELDS as BENEFICIARY_FIELDS, type PayoutWire } from '../../rules/payout.js';
import { payoutWireIssues } from '../../rules/payout-wire.js';
import { MockHttpError, type RouteContext, type Routes, validationFailed } from '../http.js';
import { rowClock } from '../lifecycle.js';
import type { MockSettings } from '../options.js';
import { assignedReference, decimalsOf, payoutFee } from '../seed/reference.js';
import type { MockTransactionRow, PayoutResult } from '../types.js';

/**
 * The spec's payout rules (shared with the SDK), then the mock's own: a currency its supported-currencies list
 * holds (`supportedCurrencies`).
 */
function validate(body: Record<string, unknown>, listed: readonly string[]): PayoutWire {
  const code = typeof body.currency === 'string' ? body.currency.trim().toUpperCase() : '';
  const known = listed.includes(code);
  const errors: FieldIssue[] = payoutWireIssues(body, known ? decimalsOf(code) : undefined);
  if (code !== '' && !known && !errors.some((e) => e.path[0] === 'currency')) {
    errors.push({ path: ['currency'], message: `must be one of: ${listed.join(', ')}` });
  }
  if (errors.length) throw validationFailed(errors);
  const wire = body as unknown as PayoutWire;
  const trimmed = BENEFICIARY_FIELDS.map((k) => [k, wire.beneficiary[k].trim()]);
  // The reference is kept exactly as sent: it is what the caller will look the payout up by.
  const externalReference = wire.externalReference || undefined;
  return { ...wire, currency: code, beneficiary: Object.fromEntries(trimmed), externalReference };
}

/**
 * The spec: "except NGN and mobile money payouts, where the service assigns the reference". A payout request
 * names no rail, so the mock decides by currency: NGN (unless `assignNgnReferences` is off), and those listed.
 */
function assignsReference(settings: MockSettings, currency: string): boolean {
  if (currency === 'NGN') return settings.assignNgnReferences;
  return settings.serviceAssignedCurrencies.some((code) => code.trim().toUpperCase() === currency);
}

/**
 * Deducts amount + fee (see `payoutFee`) from the wallet, or the amount alone with the fee taken out of it
 * (`invented.netOfFee`), records a `processing` withdrawal, and remembers the result under its reference so a
 * repeat returns it (unless `settings.dedupeByReference` is off).
 */
function initiate(ctx: RouteContext, input: PayoutWire): PayoutResult {
  const { account, rng, now } = ctx;
  const { bankCode, bankName, accountName } = input.beneficiary;
  // Exact decimal digits, not floats (0.1 * 100 is 10.000000000000002).
  const asked = toMinorUnits(input.currency, input.amount, decimalsOf(input.currency));
  const fee = payoutFee(input.currency, asked);
  const net = ctx.settings.invented.netOfFee === true;
  const destination = net ? asked - fee : asked;
  const total = destination + fee;
  const wallet = account.wallets.find((w) => w.currency === input.currency);
  if (!wallet || wallet.available_balance < total) {
    throw new MockHttpError(400, `Insufficient ${input.currency} balance for this payout (amount plus fee)`);
  }
  wallet.balance -= total;
  wallet.available_balance -= total;
  // Stamped by the row clock, which may run apart from the `Date` header's (`rowClockOffsetMs`).
  const created = new Date(rowClock(ctx.settings, now)).toISOString();
  const reference =
    (assignsReference(ctx.settings, input.currency) ? undefined : input.externalReference) ??
    assignedReference(rng, created);
  // Whether the service trims or otherwise rewrites a remark is not stated: as sent unless a test invents it.
  const remark =
    input.remark === undefined
      ? undefined
      : (ctx.settings.invented.normaliseRemark?.(input.remark) ?? input.remark);
  const row: MockTransactionRow = {
    id: rng.uuid(),
    transaction_type: 'withdrawal',
    status: 'processing',
    description: remark ?? `Payout to ${accountName}`,
    external_reference: reference,
    fee_amount: fee,
    source_amount: total,
    destination_amount: destination,
    source_currency: input.currency,
    destination_currency: input.currency,
    created_at: created,
    updated_at: created,
  };
  const tx = { row, visibleAt: now + ctx.listingLag };
  account.transactions.unshift(tx);
  ctx.followPayout(account, tx);
  const result: PayoutResult = {
    id: row.id,
    remark: remark ?? '',
    external_reference: reference,
    fee_amount: fee,
    created_at: created,
    destination_amount: destination,
    amount: total,
    beneficiary: { bank_code: bankCode, bank_name: bankName, account_name: accountName },
  };
  // A repeat is recognised by the caller's reference, whatever reference the payout was listed under.
  account.payouts.set(input.externalReference ?? reference, result);
  return result;
}

/** POST /payouts: money movement, answered in the boolean envelope. */
export const payoutRoutes: Routes = {
  'POST /payouts': {
    moneyMovement: true,
    handle: async (ctx) => {
      const input = validate(
        await ctx.body(),
        ctx.state.currencies.map((c) => c.code),
      );
      const original =
        ctx.settings.dedupeByReference && input.externalReference
          ? ctx.account.payouts.get(input.externalReference)
          : undefined;
      const data = original ?? initiate(ctx, input);
      return { message: 'Payout initiated successfully', data, booleanEnvelope: true };
    },
  },
};
