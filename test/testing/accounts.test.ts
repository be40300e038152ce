import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, useMocks } from '../helpers/mocks.js';
import { useFakeClock } from '../helpers/server.js';

const { main, plain } = useMocks({ main: {}, plain: { apiKeys: [{ key: 'sk_test_mock' }] } });

afterEach(() => {
  vi.useRealTimers();
});

describe('accounts', () => {
  it('creates accounts that join the tenancy and lists them with hasMore', async () => {
    const created = await call(main, 'POST', '/accounts', {
      body: { type: 'individual', name: 'Bayo Ade', email: 'bayo@example.com' },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { data: { type: 'individual', name: 'Bayo Ade', email: 'bayo@example.com' } },
    });
    const id = created.body.data.id;
    const page = await call(main, 'GET', '/accounts', { query: { pageSize: 2 } });
    expect(page.body.data).toMatchObject({
      totalCount: 3,
      page: 1,
      pageSize: 2,
      totalPages: 2,
      hasMore: true,
    });
    expect(page.body.data.accounts[0].id).toBe(id);
    // The new account is usable through X-Account-Id, with its own (empty) data.
    const txs = await call(main, 'GET', '/transactions', { accountId: id });
    expect(txs.body.data.totalCount).toBe(0);
    const funding = await call(main, 'GET', `/accounts/${id}/funding-instructions`);
    expect(funding.body.data).toEqual({
      accountId: id,
      currency: 'NGN',
      bank_name: 'Wema Bank',
      account_number: expect.stringMatching(/^\d{10}$/),
      account_name: 'Bayo Ade',
    });
  });

  it('refuses non-tenant keys and accounts outside the tenancy', async () => {
    expect((await call(plain, 'GET', '/accounts')).status).toBe(403);
    expect((await call(main, 'POST', '/accounts', { body: { type: 'robot' } })).status).toBe(400);
    const outside = await call(
      main,
      'GET',
      '/accounts/00000000-0000-4000-8000-000000000000/funding-instructions',
    );
    expect(outside.body).toEqual({ status: 404, message: 'Account not found in your tenancy' });
  });
});

describe('KYC links', () => {
  it('expire after 72 hours; a new link invalidates the previous one', async () => {
    useFakeClock(new Date('2026-11-20T10:00:00.000Z'));
    const accountId = main.state.individualAccountId;
    const first = await call(main, 'POST', `/accounts/${accountId}/kyc-link`);
    expect(first).toMatchObject({ status: 201, body: { message: 'KYC link generated successfully' } });
    expect(first.body.data).toEqual({
      token: expect.any(String),
      url: expect.stringContaining(first.body.data.token),
      status: 'active',
      expiresAt: '2026-11-23T10:00:00.000Z',
      accountId,
    });
    const second = await call(main, 'POST', `/accounts/${accountId}/kyc-link`);
    expect(second.body.data.token).not.toBe(first.body.data.token);
    expect(main.kyc.links(accountId).map((l) => l.status)).toEqual(['invalidated', 'active']);
    vi.setSystemTime(new Date('2026-11-23T10:00:00.000Z'));
    expect(main.kyc.links(accountId).map((l) => l.status)).toEqual(['invalidated', 'expired']);
    expect(() => main.kyc.complete(accountId)).toThrow(/no active/);
  });

  it('a failed attempt can be retried with a new link; a passed account is left alone', async () => {
    const accountId = main.state.individualAccountId;
    await call(main, 'POST', `/accounts/${accountId}/kyc-link`);
    main.kyc.fail(accountId);
    await call(main, 'POST', `/accounts/${accountId}/kyc-link`);
    main.kyc.complete(accountId);
    expect(main.kyc.links(accountId).map((l) => l.status)).toEqual(['rejected', 'completed']);
    // Left untouched: the completed link comes back (201), nothing is added or invalidated.
    const again = await call(main, 'POST', `/accounts/${accountId}/kyc-link`);
    expect(again.body.data.status).toBe('completed');
    expect(main.kyc.links(accountId).map((l) => l.status)).toEqual(['rejected', 'completed']);
  });

  it('400 for business accounts and non-uuid ids', async () => {
    expect((await call(main, 'POST', `/accounts/${main.state.businessAccountId}/kyc-link`)).status).toBe(400);
    expect((await call(main, 'POST', '/accounts/not-a-uuid/kyc-link')).body.message).toBe(
      'Validation failed',
    );
  });
});

describe('referral link', () => {
  it('creates one link per account', async () => {
    const res = await call(main, 'POST', '/broker/referral-link');
    expect(res.body).toEqual({
      status: 200,
      success: true,
      message: 'Referral link created successfully',
      data: {
        code: expect.stringMatching(/^[A-Z0-9]{8}$/),
        inviteUrl: expect.stringContaining(res.body.data.code),
      },
    });
    expect((await call(main, 'POST', '/broker/referral-link')).body.data).toEqual(res.body.data);
  });
});
