import { describe, expect, it } from 'vitest';
import { PayoutCreateSchema, payoutBodySchema } from '../../src/rules/payout.js';
import { payoutWireIssues } from '../../src/rules/payout-wire.js';
import { fieldIssues } from '../../src/rules/schema.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const usdc = (amount: string) => ({ amount, currency: 'USDC', beneficiary: BENEFICIARY });

describe('a payout body schema is built once per digits, and each keeps its own digits', () => {
  it('hands back the same schema for the same digits, and another for other digits', () => {
    expect(payoutBodySchema()).toBe(payoutBodySchema());
    expect(payoutBodySchema(6)).toBe(payoutBodySchema(6));
    expect(payoutBodySchema(6)).not.toBe(payoutBodySchema(2));
  });

  it('checks each amount against the digits it was asked for, whichever was built first', () => {
    // Six digits first, then two: a cache keyed wrongly would judge the second by the first's digits.
    expect(fieldIssues(payoutBodySchema(6), usdc('10.123456'))).toEqual([]);
    expect(fieldIssues(payoutBodySchema(2), usdc('10.123456')).map((i) => i.path)).toEqual([['amount']]);
    expect(fieldIssues(payoutBodySchema(2), usdc('10.12'))).toEqual([]);
    expect(fieldIssues(payoutBodySchema(6), usdc('10.123456'))).toEqual([]);
  });

  it('exports a copy of its own as PayoutCreateSchema, so changing it cannot change what create accepts', () => {
    expect(PayoutCreateSchema).not.toBe(payoutBodySchema());
    expect(fieldIssues(PayoutCreateSchema, usdc('10.00'))).toEqual(
      fieldIssues(payoutBodySchema(), usdc('10.00')),
    );
  });

  it('does not keep a schema for digits no currency has (a caller cannot grow the cache)', () => {
    for (const digits of [-1, 2.5, 19, Number.NaN]) {
      expect(payoutBodySchema(digits)).not.toBe(payoutBodySchema(digits));
    }
  });

  it('the wire check (the mock) keeps its schemas the same way, digits apart', () => {
    const wire = { amount: 10.5, currency: 'USD', beneficiary: BENEFICIARY };
    expect(payoutWireIssues(wire)).toEqual([]);
    expect(payoutWireIssues({ ...wire, amount: 10.123 }).map((i) => i.path)).toEqual([['amount']]);
    expect(payoutWireIssues({ ...wire, currency: 'USDC', amount: 10.123 }, 3)).toEqual([]);
    expect(payoutWireIssues({ ...wire, currency: 'USDC', amount: 10.1234 }, 3).map((i) => i.path)).toEqual([
      ['amount'],
    ]);
  });
});
