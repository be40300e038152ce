/**
 * The mock against the spec's own words (issue 15, items 14 to 16): each test quotes the sentence it checks.
 */
import { describe, expect, it } from 'vitest';
import { call, useMocks } from './testing/support.js';

const { main } = useMocks({ main: {} });

const payerName = (display_name: string) => ({
  entity_type: 'business',
  display_name,
  country: 'NG',
  address_line: '1 Marina Road',
  city: 'Lagos',
  state_province: 'Lagos',
});

describe('POST /payer-names 409 (item 14)', () => {
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

describe('POST /accounts/{accountId}/kyc-link for an account that already passed (item 15)', () => {
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
