import { describe, expect, it } from 'vitest';
import type { Payout, PayoutWire, Transaction } from '../../src/index.js';
import { payoutDifferences, rowDifferences } from '../../src/payouts/same-payout.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

/** A payout's total deducted, typed as a response carries it. */
const total = (minor: number) => minor as Payout['amount'];

const sent: PayoutWire = {
  amount: 10,
  currency: 'USD',
  beneficiary: { ...BENEFICIARY },
  remark: 'Invoice 7 for March',
  externalReference: 'inv-7',
};

/** The answer POST /payouts gives for `sent`: 10.00 USD to the beneficiary, with a 0.10 fee on top. */
const answer: Payout = {
  id: '9d6a0a52-4c1e-4e57-9a37-5d2b7e3c1f00',
  remark: 'Invoice 7 for March',
  external_reference: 'inv-7',
  fee_amount: 10,
  created_at: '2026-11-24T09:00:00Z',
  destination_amount: 1000,
  amount: 1010 as Payout['amount'],
  beneficiary: { bank_code: '000013', bank_name: 'Guaranty Trust Bank', account_name: 'ADAEZE KEMI OKAFOR' },
};

const row: Transaction = {
  id: answer.id,
  transaction_type: 'withdrawal',
  status: 'processing',
  description: 'Invoice 7 for March',
  external_reference: 'inv-7',
  fee_amount: 10,
  source_amount: 1010,
  destination_amount: 1000,
  source_currency: 'USD',
  destination_currency: 'USD',
  created_at: answer.created_at,
  updated_at: answer.created_at,
};

const fields = (found: { field: string }[]) => found.map((d) => d.field);

describe('payoutDifferences: the answer to a POST against what was sent', () => {
  it('finds none when the answer is the payout sent', () => {
    expect(payoutDifferences(sent, answer)).toEqual([]);
  });

  it('takes the amount sent as destination_amount, or as the total deducted (a fee taken out of it)', () => {
    const netOfFee = { ...answer, destination_amount: 990, amount: total(1000) };
    expect(payoutDifferences(sent, netOfFee)).toEqual([]);
  });

  it('names another amount, with what was sent and what the answer shows', () => {
    const found = payoutDifferences({ ...sent, amount: 900 }, answer);
    expect(found).toEqual([
      {
        field: 'amount',
        sent: '900.00 USD',
        shown: 'destination_amount 1000 (10.00 USD), amount 1010 (10.10 USD)',
      },
    ]);
  });

  it('names another bank code, and an account number where the answer shows one', () => {
    const other = {
      ...sent,
      beneficiary: { ...BENEFICIARY, bankCode: '000014', accountNumber: '9999999999' },
    };
    expect(fields(payoutDifferences(other, answer))).toEqual(['beneficiary.bankCode']);
    const shown = { ...answer, beneficiary: { ...answer.beneficiary, account_number: '0123456788' } };
    expect(fields(payoutDifferences(other, shown))).toEqual([
      'beneficiary.bankCode',
      'beneficiary.accountNumber',
    ]);
    // Spacing and case are not differences.
    const spaced = { ...sent, beneficiary: { ...BENEFICIARY, accountNumber: '0123 4567 88' } };
    expect(payoutDifferences(spaced, shown)).toEqual([]);
  });

  it('names another currency only where the answer shows one (the spec does not)', () => {
    expect(payoutDifferences({ ...sent, currency: 'usd ' }, answer)).toEqual([]);
    const shown = { ...answer, currency: 'NGN' } as Payout;
    expect(fields(payoutDifferences(sent, shown))).toEqual(['currency']);
  });

  it('names another remark, but not one the service re-spaced, re-cased or shortened', () => {
    expect(fields(payoutDifferences({ ...sent, remark: 'Invoice 8 for March' }, answer))).toEqual(['remark']);
    expect(payoutDifferences(sent, { ...answer, remark: 'invoice  7 FOR march' })).toEqual([]);
    expect(payoutDifferences(sent, { ...answer, remark: 'Invoice 7 fo' })).toEqual([]);
    // No remark on either side compares nothing.
    const { remark: _, ...unremarked } = sent;
    expect(payoutDifferences(unremarked, { ...answer, remark: '' })).toEqual([]);
    expect(payoutDifferences(sent, { ...answer, remark: undefined })).toEqual([]);
  });

  it('compares an amount in a currency of unstated digits by any digits, whatever digits the caller believes', () => {
    const usdt = { ...sent, currency: 'USDT', amount: 1.5 };
    const sixDigits = { ...answer, destination_amount: 1_500_000, amount: total(1_510_000) };
    expect(payoutDifferences(usdt, sixDigits)).toEqual([]);
    // The caller said 6, the service counts 2: the same payout all the same.
    const twoDigits = { ...answer, destination_amount: 150, amount: total(151) };
    expect(payoutDifferences(usdt, twoDigits, { digits: 6 })).toEqual([]);
    const found = payoutDifferences({ ...usdt, amount: 900 }, sixDigits);
    expect(found).toEqual([
      { field: 'amount', sent: '900 USDT', shown: 'destination_amount 1500000, amount 1510000' },
    ]);
  });

  it('compares XAF in whole francs, or in the digits the caller gives', () => {
    const xaf = { ...sent, currency: 'XAF', amount: 5000 };
    const centimes = { ...answer, destination_amount: 500_000, amount: total(505_000) };
    expect(payoutDifferences(xaf, { ...answer, destination_amount: 5000, amount: total(5050) })).toEqual([]);
    expect(fields(payoutDifferences(xaf, centimes))).toEqual(['amount']);
    expect(payoutDifferences(xaf, centimes, { digits: 2 })).toEqual([]);
  });
});

describe('rowDifferences: a listed row against what was sent', () => {
  it('finds none for the payout sent, nor for a row that shows the amount net of the fee', () => {
    expect(rowDifferences(sent, row)).toEqual([]);
    expect(rowDifferences(sent, { ...row, destination_amount: 990, source_amount: 1000 })).toEqual([]);
  });

  it('names amount, currency and remark, the fields a row shows', () => {
    const other = { ...row, destination_amount: 90_000, source_amount: 90_100, description: 'Payroll' };
    expect(fields(rowDifferences(sent, other))).toEqual(['amount', 'remark']);
    const ngn = { ...row, destination_currency: 'NGN', source_currency: 'NGN' };
    // An amount in another currency is not compared with the one sent.
    expect(fields(rowDifferences(sent, ngn))).toEqual(['currency']);
  });

  it('compares nothing a row does not show', () => {
    const bare = { id: row.id, transaction_type: 'withdrawal', status: 'processing' } as Transaction;
    expect(rowDifferences({ ...sent, amount: 900 }, { ...bare, created_at: '', updated_at: '' })).toEqual([]);
    // Without a remark sent, the row's description is the service's own text.
    const { remark: _, ...unremarked } = sent;
    expect(rowDifferences(unremarked, { ...row, description: 'Payout to ADAEZE' })).toEqual([]);
  });
});
