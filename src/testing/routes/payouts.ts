import type { FieldIssue } from '../../core/error.js';
import { payoutFee } from '../fees.js';
import { MockHttpError, type Route, type RouteContext, readJsonObject, validationFailed } from '../http.js';
import { CURRENCY_CODES, decimalsOf } from '../seed/reference.js';
import type { MockTransactionRow, PayoutResult } from '../types.js';

const BENEFICIARY_FIELDS = ['accountName', 'accountNumber', 'bankName', 'bankCode', 'email'] as const;

interface PayoutInput {
  amount: number;
  currency: string;
  beneficiary: Record<(typeof BENEFICIARY_FIELDS)[number], string>;
  remark: string | undefined;
  externalReference: string | undefined;
}

function validate(body: Record<string, unknown>): PayoutInput {
  const errors: FieldIssue[] = [];
  const { amount, currency, beneficiary, remark, externalReference } = body;
  const code = typeof currency === 'string' ? currency.trim().toUpperCase() : '';
  if (typeof currency !== 'string' || code === '')
    errors.push({ path: ['currency'], message: 'is required' });
  else if (!CURRENCY_CODES.includes(code)) {
    errors.push({ path: ['currency'], message: `must be one of: ${CURRENCY_CODES.join(', ')}` });
  }
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    errors.push({ path: ['amount'], message: amount === undefined ? 'is required' : 'must be a number' });
  } else if (amount <= 0) errors.push({ path: ['amount'], message: 'must be greater than 0' });
  else if (Math.abs(amount * 10 ** decimalsOf(code) - Math.round(amount * 10 ** decimalsOf(code))) > 1e-6) {
    errors.push({ path: ['amount'], message: `must have at most ${decimalsOf(code)} decimal places` });
  }
  const ben = (beneficiary ?? {}) as Record<string, unknown>;
  if (typeof beneficiary !== 'object' || beneficiary === null || Array.isArray(beneficiary)) {
    errors.push({ path: ['beneficiary'], message: 'is required' });
  } else {
    for (const name of BENEFICIARY_FIELDS) {
      if (typeof ben[name] !== 'string' || (ben[name] as string).trim() === '') {
        errors.push({ path: ['beneficiary', name], message: 'is required' });
      }
    }
  }
  if (remark !== undefined && remark !== null && typeof remark !== 'string') {
    errors.push({ path: ['remark'], message: 'must be a string' });
  }
  if (
    externalReference !== undefined &&
    externalReference !== null &&
    typeof externalReference !== 'string'
  ) {
    errors.push({ path: ['externalReference'], message: 'must be a string' });
  }
  if (errors.length) throw validationFailed(errors);
  return {
    amount: amount as number,
    currency: code,
    beneficiary: Object.fromEntries(
      BENEFICIARY_FIELDS.map((k) => [k, String(ben[k]).trim()]),
    ) as PayoutInput['beneficiary'],
    remark: typeof remark === 'string' ? remark : undefined,
    // Kept exactly as sent: it is what the caller will look the payout up by.
    externalReference:
      typeof externalReference === 'string' && externalReference !== '' ? externalReference : undefined,
  };
}

/**
 * Deducts amount + fee (see `payoutFee`) from the wallet, records a `processing` withdrawal, and remembers
 * the result under its reference so a repeat returns it (unless `settings.dedupeByReference` is off).
 */
function initiate(ctx: RouteContext, input: PayoutInput): PayoutResult {
  const { account, rng, now } = ctx;
  const destination = Math.round(input.amount * 10 ** decimalsOf(input.currency));
  const fee = payoutFee(input.currency, destination);
  const total = destination + fee;
  const wallet = account.wallets.find((w) => w.currency === input.currency);
  if (!wallet || wallet.available_balance < total) {
    throw new MockHttpError(400, `Insufficient ${input.currency} balance for this payout (amount plus fee)`);
  }
  wallet.balance -= total;
  wallet.available_balance -= total;
  const created = new Date(now).toISOString();
  // The spec: "except NGN and mobile money payouts, where the service assigns the reference".
  const serviceAssigned = ctx.settings.assignNgnReferences && input.currency === 'NGN';
  const reference =
    (serviceAssigned ? undefined : input.externalReference) ??
    `PO-${created.slice(0, 10).replaceAll('-', '')}-${rng.code(10)}`;
  const description = input.remark ?? `Payout to ${input.beneficiary.accountName}`;
  const row: MockTransactionRow = {
    id: rng.uuid(),
    transaction_type: 'withdrawal',
    status: 'processing',
    description,
    external_reference: reference,
    fee_amount: fee,
    source_amount: total,
    destination_amount: destination,
    source_currency: input.currency,
    destination_currency: input.currency,
    created_at: created,
    updated_at: created,
  };
  account.transactions.unshift({ row, visibleAt: now + ctx.listingLag });
  const result: PayoutResult = {
    id: row.id,
    remark: input.remark ?? '',
    external_reference: reference,
    fee_amount: fee,
    created_at: created,
    destination_amount: destination,
    amount: total,
    beneficiary: {
      bank_code: input.beneficiary.bankCode,
      bank_name: input.beneficiary.bankName,
      account_name: input.beneficiary.accountName,
    },
  };
  // A repeat is recognised by the caller's reference, whatever reference the payout was listed under.
  account.payouts.set(input.externalReference ?? reference, result);
  return result;
}

/** POST /payouts: money movement, answered in the boolean envelope. */
export const payoutRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/payouts',
    moneyMovement: true,
    handle: async (ctx) => {
      const input = validate(await readJsonObject(ctx.request));
      const original =
        ctx.settings.dedupeByReference && input.externalReference
          ? ctx.account.payouts.get(input.externalReference)
          : undefined;
      const result = original ?? initiate(ctx, input);
      return {
        message: 'Payout initiated successfully',
        data: structuredClone(result),
        booleanEnvelope: true,
      };
    },
  },
];
