/**
 * The mock against the spec's own words: each test quotes the sentence it checks.
 */
import { describe, expect, it } from 'vitest';
import { isLegacyTransaction, PaymentsClient } from '../../src/index.js';
import { call, KEY, useMocks } from '../helpers/mocks.js';

const { main, legacy } = useMocks({ main: {}, legacy: { envelope: 'legacy' } });

const payerName = (display_name: string) => ({
  entity_type: 'business',
  display_name,
  country: 'NG',
  address_line: '1 Marina Road',
  city: 'Lagos',
  state_province: 'Lagos',
});

describe('POST /payer-names 409', () => {
  // "unique, case-insensitive, among the caller's names in review or approved"; "A rejected or archived name
  // does not block reuse": a name with changes requested is neither, so it still holds the display name.
  it('a name in changes_requested still blocks the same display name (only rejected or archived free it)', async () => {
    const first = await call(main, 'POST', '/payer-names', { body: payerName('Acme Payouts') });
    main.payerNames.review(first.body.data.id, 'request_changes', 'Upload the certificate');
    const again = await call(main, 'POST', '/payer-names', { body: payerName('ACME payouts') });
    expect(again.status).toBe(409);
  });

  it('the name in changes_requested can still be updated under its own display name', async () => {
    const first = await call(main, 'POST', '/payer-names', { body: payerName('Acme Payouts') });
    main.payerNames.review(first.body.data.id, 'request_changes', 'Upload the certificate');
    const updated = await call(main, 'PATCH', `/payer-names/${first.body.data.id}`, {
      body: { city: 'Abuja' },
    });
    expect(updated.status).toBe(200);
  });

  it('rejected and archived names do not block reuse', async () => {
    const rejected = await call(main, 'POST', '/payer-names', { body: payerName('Acme Payouts') });
    main.payerNames.review(rejected.body.data.id, 'reject', 'No');
    const archived = await call(main, 'POST', '/payer-names', { body: payerName('Acme Payouts') });
    expect(archived.status).toBe(201);
    await call(main, 'DELETE', `/payer-names/${archived.body.data.id}`);
    expect((await call(main, 'POST', '/payer-names', { body: payerName('Acme Payouts') })).status).toBe(201);
  });
});

describe('POST /accounts/{accountId}/kyc-link for an account that already passed', () => {
  // "An account that already passed is left untouched." The endpoint's only success answer is 201 `KYC link
  // generated successfully` with an Individual KYC link, whose `status` may be `completed`.
  it('is not a 400: 201 with the completed link, and no link is added or invalidated', async () => {
    const accountId = main.state.individualAccountId;
    const first = await call(main, 'POST', `/accounts/${accountId}/kyc-link`);
    main.kyc.complete(accountId);
    const before = main.kyc.links(accountId);
    const again = await call(main, 'POST', `/accounts/${accountId}/kyc-link`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ success: true, message: 'KYC link generated successfully' });
    expect(again.body.data).toEqual({ ...first.body.data, status: 'completed' });
    expect(main.kyc.links(accountId)).toEqual(before);
  });
});

describe("envelope: 'legacy' lists transactions in the older row form", () => {
  // "The older variant of the listing shows per-row `type`, `amount`, `currency`, `description`, `created_at`
  // instead of the fields above."
  it('GET /transactions rows carry type, amount, currency, description and created_at, nothing else', async () => {
    const res = await call(legacy, 'GET', '/transactions', { query: { pageSize: 100 } });
    const rows: Array<Record<string, unknown>> = res.body.data.data;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['amount', 'created_at', 'currency', 'description', 'type']);
    }
    const stored = legacy.account().transactions.find((t) => t.row.status !== 'failed')!.row;
    expect(rows[0]).toEqual({
      type: stored.transaction_type,
      amount: stored.source_amount,
      currency: stored.source_currency,
      description: stored.description,
      created_at: stored.created_at,
    });
  });

  it('the SDK reads them as older-form rows (isLegacyTransaction), with the same filters applied', async () => {
    const client = new PaymentsClient({ apiKey: KEY, baseUrl: legacy.baseUrl, logLevel: 'off' });
    const rows = await client.transactions.list({ pageSize: 100, status: 'failed' }).toArray();
    const failed = legacy.account().transactions.filter((t) => t.row.status === 'failed');
    expect(rows).toHaveLength(failed.length);
    expect(rows.every(isLegacyTransaction)).toBe(true);
  });
});
