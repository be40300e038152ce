import type { Rng } from '../random.js';
import type { MockTransaction, MockTransactionRow } from '../types.js';
import { PAYERS, payoutFee } from './reference.js';

/** The virtual accounts deposits of one account arrive on, by currency. */
export type VirtualAccounts = Record<'NGN' | 'USD' | 'XAF', Record<string, string>>;

/** Seeds the receiving accounts deposits name in `virtual_account`. */
export function seedVirtualAccounts(rng: Rng, accountName: string): VirtualAccounts {
  // The id is drawn before the number: the seeded ids depend on that order.
  const va = (currency: string, method: string, bank_name: string, number: () => string) => {
    const id = rng.uuid();
    return { id, currency, method, bank_name, account_number: number(), account_name: accountName };
  };
  return {
    NGN: va('NGN', 'bank_transfer', 'Wema Bank', () => rng.digits(10)),
    USD: {
      ...va('USD', 'ach', 'Lead Bank', () => rng.digits(12)),
      routing_number: '101019644',
      swift_code: 'LEADUS44',
    },
    XAF: va('XAF', 'mobile_money', 'MTN Mobile Money', () => `2376${rng.digits(8)}`),
  };
}

type Kind = 'ngn_in' | 'ach_in' | 'wire_in' | 'swift_in' | 'momo_in' | 'ngn_out' | 'wire_out' | 'usdt_out';
/**
 * Each kind of seeded row: its currency; for a deposit, its rail (none on NGN bank transfers: that provider
 * reports no method) and the range of `PAYERS` it comes from; for a withdrawal, its description.
 */
const KIND: Record<
  Kind,
  { currency: string; rail?: string; payers?: [number, number]; description?: string }
> = {
  ngn_in: { currency: 'NGN', payers: [0, 1] },
  ach_in: { currency: 'USD', rail: 'ach', payers: [2, 3] },
  wire_in: { currency: 'USD', rail: 'wire_domestic', payers: [2, 3] },
  swift_in: { currency: 'USD', rail: 'wire_international', payers: [4, 4] },
  momo_in: { currency: 'XAF', rail: 'mobile_money', payers: [5, 5] },
  ngn_out: { currency: 'NGN', description: 'Vendor payout' },
  wire_out: { currency: 'USD', description: 'International wire to supplier' },
  usdt_out: { currency: 'USDT', description: 'USDT payout' },
};
// Drawn with equal odds: local deposits and payouts twice as often as each other kind.
const KIND_DRAW = 'ngn_in ngn_in ach_in wire_in swift_in momo_in ngn_out ngn_out wire_out usdt_out';
const KINDS = KIND_DRAW.split(' ') as Kind[];
const OUT_STATUSES = ['completed', 'completed', 'completed', 'sent', 'processing', 'pending', 'refunded'];
const HOUR = 3_600_000;

function amountFor(rng: Rng, currency: string): number {
  if (currency === 'NGN') return rng.int(5_000, 2_000_000) * 100;
  if (currency === 'XAF') return rng.int(5_000, 1_500_000);
  return rng.int(50, 25_000) * 100;
}

function deposit(rng: Rng, kind: Kind, va: VirtualAccounts): Partial<MockTransactionRow> {
  const { currency, rail, payers: [first, last] = [0, 0] } = KIND[kind];
  const payer = PAYERS[first === last ? first : rng.int(first, last)]!;
  const amount = amountFor(rng, currency);
  return {
    transaction_type: 'deposit',
    description: `Deposit from ${payer.name}`,
    fee_amount: 0,
    source_amount: amount,
    destination_amount: amount,
    source_currency: currency,
    destination_currency: currency,
    ...(rail ? { payment_rail: rail } : {}),
    virtual_account: va[currency as keyof VirtualAccounts],
    payer: {
      name: payer.name,
      account_number: rng.digits(10),
      bank_name: payer.bank_name,
      country: payer.country,
    },
  };
}

function withdrawal(rng: Rng, kind: Kind, status: string, day: string): Partial<MockTransactionRow> {
  const { currency, description } = KIND[kind];
  const destination = amountFor(rng, currency);
  const fee = payoutFee(currency, destination);
  const row: Partial<MockTransactionRow> = {
    transaction_type: 'withdrawal',
    description,
    fee_amount: fee,
    source_amount: destination + fee,
    destination_amount: destination,
    source_currency: currency,
    destination_currency: currency,
  };
  // A UETR exists only once the correspondent network assigned it: never on pending or processing wires.
  if (kind === 'wire_out' && ['completed', 'sent', 'refunded'].includes(status)) {
    const uetr = rng.uuid();
    row.uetr = uetr;
    row.tracking_codes = rng.next() < 0.5 ? { UETR: uetr } : { UETR: uetr, IMAD: imadCode(rng, day) };
  }
  return row;
}

/** An IMAD (the spec shows no format): the day as YYYYMMDD, an 8-character source, a 6-digit sequence. */
export function imadCode(rng: Rng, day: string): string {
  return `${day}QMGFT${rng.digits(3)}${rng.digits(6)}`;
}

/**
 * `count` rows, newest first, ending at `endMs`. Every tenth row (index 3, 13, ...) is `failed`, so each
 * seed has some; the rest mix deposits on every rail with local, wire and stablecoin withdrawals.
 */
export function seedHistory(rng: Rng, count: number, endMs: number, va: VirtualAccounts): MockTransaction[] {
  const rows: MockTransaction[] = [];
  let at = endMs - rng.int(1, 12) * HOUR;
  for (let i = 0; i < count; i++) {
    const kind = rng.pick(KINDS);
    const isDeposit = kind.endsWith('_in');
    const status = i % 10 === 3 ? 'failed' : isDeposit ? 'completed' : rng.pick(OUT_STATUSES);
    const created = new Date(at).toISOString();
    const day = created.slice(0, 10).replaceAll('-', '');
    const body = isDeposit ? deposit(rng, kind, va) : withdrawal(rng, kind, status, day);
    const updated = new Date(at + (status === 'pending' ? 0 : rng.int(1, 48) * 60_000)).toISOString();
    const prefix = isDeposit ? 'DEP' : 'PAY';
    const row = {
      id: rng.uuid(),
      status,
      external_reference: `${prefix}-${day}-${rng.code(6)}`,
      ...body,
      created_at: created,
      updated_at: updated,
    } as MockTransactionRow;
    rows.push({ row, visibleAt: 0 });
    at -= rng.int(2, 60) * HOUR;
  }
  return rows;
}
