/**
 * Behaviour the spec does not state. Where the spec speaks the mock follows it; where it is
 * silent, the mock's default assumes nothing and any invention is an explicit option under `invented`, or is
 * named in the "What the mock invents" table of docs/testing.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { call, useMocks } from '../helpers/mocks.js';

const { main, inventive } = useMocks({
  main: {},
  inventive: {
    invented: {
      getPayerName: true,
      hideArchivedPayerNames: true,
      rejectReversedDateRange: true,
      pageSizeLimit: 100,
      deprecationWarning: (fields) => ({ fields }),
      normaliseRemark: (remark) => remark.trim(),
    },
  },
});

const payerName = {
  entity_type: 'business',
  display_name: 'Acme Payouts',
  country: 'NG',
  address_line: '1 Marina Road',
  city: 'Lagos',
  state_province: 'Lagos',
};

describe('GET /payer-names/{id}: not in the spec ("Operations named but not described" does not name it)', () => {
  it('is not answered by default (404, as any path the spec does not show)', async () => {
    const id = (await call(main, 'POST', '/payer-names', { body: payerName })).body.data.id;
    expect((await call(main, 'GET', `/payer-names/${id}`)).status).toBe(404);
  });

  it('invented.getPayerName answers it with the PayerName', async () => {
    const id = (await call(inventive, 'POST', '/payer-names', { body: payerName })).body.data.id;
    const read = await call(inventive, 'GET', `/payer-names/${id}`);
    expect(read).toMatchObject({ status: 200, body: { data: { id, name: 'Acme Payouts' } } });
  });
});

describe('GET /payer-names: "Filters include `archived`"; what the listing shows without it is not stated', () => {
  it('by default the filter filters only when sent: without it archived names are listed too', async () => {
    const id = (await call(main, 'POST', '/payer-names', { body: payerName })).body.data.id;
    await call(main, 'DELETE', `/payer-names/${id}`);
    const ids = async (query: Record<string, string>) =>
      (await call(main, 'GET', '/payer-names', { query })).body.data.payerNames.map(
        (n: { id: string }) => n.id,
      );
    expect(await ids({})).toEqual([id]);
    expect(await ids({ archived: 'true' })).toEqual([id]);
    expect(await ids({ archived: 'false' })).toEqual([]);
  });

  it('invented.hideArchivedPayerNames hides them unless archived=true', async () => {
    const id = (await call(inventive, 'POST', '/payer-names', { body: payerName })).body.data.id;
    await call(inventive, 'DELETE', `/payer-names/${id}`);
    expect((await call(inventive, 'GET', '/payer-names')).body.data.payerNames).toEqual([]);
  });
});

describe('deprecation_warning: "Fields of `deprecation_warning`: not shown"', () => {
  const unclassified = {
    currency: 'USD',
    withdrawal_method: 'ach',
    account_name: 'Jane Roe',
    account_number: '123456789',
    bank_name: 'Lead Bank',
    routing_number: '101019644',
    bank_address: {
      line1: '1 Main St',
      city: 'Kansas City',
      state: 'MO',
      postal_code: '64105',
      country: 'US',
    },
  };

  it('is present but carries no invented fields by default (an empty object)', async () => {
    const res = await call(main, 'POST', '/beneficiaries', { body: unclassified });
    expect(res.status).toBe(201);
    expect(res.body.data.deprecation_warning).toEqual({});
  });

  it('invented.deprecationWarning builds it from the omitted fields', async () => {
    const res = await call(inventive, 'POST', '/beneficiaries', { body: unclassified });
    expect(res.body.data.deprecation_warning).toEqual({ fields: ['account_owner_type', 'account_category'] });
  });
});

describe('GET /transactions with startDate after endDate: the spec says only "400 on invalid parameters"', () => {
  const reversed = { startDate: '2026-11-15', endDate: '2026-11-01' };

  it('is not refused by default: an inclusive range that holds no day matches no rows', async () => {
    const res = await call(main, 'GET', '/transactions', { query: reversed });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ transactions: [], totalCount: 0 });
  });

  it('invented.rejectReversedDateRange makes it a 400', async () => {
    expect((await call(inventive, 'GET', '/transactions', { query: reversed })).status).toBe(400);
    expect((await call(inventive, 'GET', '/wallet/transactions', { query: reversed })).status).toBe(400);
  });
});

describe("a payout's remark: whether the service trims it is not stated", () => {
  const body = (externalReference: string) => ({
    amount: 25,
    currency: 'USD',
    beneficiary: BENEFICIARY,
    remark: ' Invoice 78 ',
    externalReference,
  });
  const listedAs = async (mock: typeof main, ref: string) =>
    (await call(mock, 'GET', '/wallet/transactions', { query: { reference: ref } })).body.data.transactions[0]
      .description;

  it('is stored exactly as sent by default', async () => {
    const res = await call(main, 'POST', '/payouts', { body: body('rm-1') });
    expect(res.body.data.remark).toBe(' Invoice 78 ');
    expect(await listedAs(main, 'rm-1')).toBe(' Invoice 78 ');
  });

  it('invented.normaliseRemark rewrites it as stored: the answer and the listing show the result', async () => {
    const res = await call(inventive, 'POST', '/payouts', { body: body('rm-2') });
    expect(res.body.data.remark).toBe('Invoice 78');
    expect(await listedAs(inventive, 'rm-2')).toBe('Invoice 78');
  });
});

describe('X-Account-Id: "not a valid uuid | 400"', () => {
  it("a blank header is not a uuid: 400, not the key's own account", async () => {
    const res = await call(main, 'GET', '/wallet/wallets', { headers: { 'X-Account-Id': '' } });
    expect(res.status).toBe(400);
    const spaces = await call(main, 'GET', '/wallet/wallets', { headers: { 'X-Account-Id': '   ' } });
    expect(spaces.status).toBe(400);
  });
});

describe('pageSize: "maximum 100 on most endpoints, some enforce another ceiling or none"', () => {
  const lists = ['/wallet/transactions', '/beneficiaries', '/payer-names', '/accounts'];

  it('GET /transactions ("one description gives max 100") refuses 101', async () => {
    expect((await call(main, 'GET', '/transactions', { query: { pageSize: 101 } })).status).toBe(400);
    expect((await call(main, 'GET', '/transactions', { query: { pageSize: 100 } })).status).toBe(200);
  });

  it('the other listings, whose ceiling the spec does not give, accept 500 by default', async () => {
    for (const path of lists) {
      const res = await call(main, 'GET', path, { query: { pageSize: 500 } });
      expect([path, res.status, res.body.data.pageSize ?? res.body.data.pagination.pageSize]).toEqual([
        path,
        200,
        500,
      ]);
    }
  });

  it('invented.pageSizeLimit gives them one', async () => {
    for (const path of lists) {
      expect([path, (await call(inventive, 'GET', path, { query: { pageSize: 101 } })).status]).toEqual([
        path,
        400,
      ]);
    }
  });
});

describe('the testing kit page (docs/testing.md) names what the mock invents', () => {
  const section = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');

  it('has a "What the mock invents" table naming the wallet-transaction filters and every invented option', () => {
    expect(section).toContain('What the mock invents');
    const table = section.slice(section.indexOf('What the mock invents'));
    for (const name of [
      'GET /wallet/transactions',
      '`currency`',
      '`type`',
      '`reference`',
      'getPayerName',
      'hideArchivedPayerNames',
      'deprecationWarning',
      'rejectReversedDateRange',
      'pageSizeLimit',
      'normaliseRemark',
      'unstableTieOrder',
      'dateRangeField',
      'listedRemarkLength',
      'netOfFee',
      'listedMinorDigits',
      'historyEnd',
    ]) {
      expect(table).toContain(name);
    }
  });
});
