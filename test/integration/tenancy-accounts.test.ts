import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  NotFoundError,
  PaymentsClient,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import { clientFor, ngnPayout, rejection, useMock } from '../helpers/mock.js';

// The default key is a tenant key; a second key of the same account is not.
const PLAIN_KEY = 'sk_test_plain';
const { mock, requests } = useMock({
  apiKeys: [
    { key: 'sk_test_mock', tenant: true, allowlist: ['127.0.0.1'] },
    { key: PLAIN_KEY, allowlist: ['127.0.0.1'] },
  ],
});

const ids = (rows: readonly object[]) => rows.map((r) => (r as { id?: unknown }).id);
const visible = (accountId: string) =>
  mock
    .account(accountId)
    .transactions.map((t) => t.row)
    .filter((r) => r.status !== 'failed');

describe('tenancy: forAccount', () => {
  it("a scoped client sees that account's data, not the main account's", async () => {
    const main = clientFor(mock);
    const individualId = mock.state.individualAccountId;
    const scoped = main.forAccount(individualId);
    expect(scoped.accountId).toBe(individualId);
    expect(main.accountId).toBeUndefined();

    const own = await scoped.transactions.list({ pageSize: 100 }).toArray();
    expect(ids(own)).toEqual(ids(visible(individualId)));
    const mainRows = await main.transactions.list({ pageSize: 100 }).toArray();
    expect(ids(mainRows)).toEqual(ids(visible(mock.state.mainAccountId)));
    expect(ids(own).some((id) => ids(mainRows).includes(id))).toBe(false);

    const wallets = await scoped.wallet.list();
    expect(wallets.find((w) => w.currency === 'NGN')).toMatchObject({ balance: 50_000_000 });
    expect(wallets).toEqual(mock.account(individualId).wallets);
  });

  it('writes through a scoped client land on that account', async () => {
    const scoped = clientFor(mock).forAccount(mock.state.businessAccountId);
    const payout = await scoped.payouts.create(ngnPayout('kola-1'));
    const business = mock.account(mock.state.businessAccountId);
    expect(business.payouts.get('kola-1')?.id).toBe(payout.id);
    expect(business.wallets.find((w) => w.currency === 'NGN')!.balance).toBe(800_000_000 - payout.amount);
    expect(mock.account().payouts.size).toBe(0);
    expect(mock.account().wallets.find((w) => w.currency === 'NGN')!.balance).toBe(2_500_000_000);
  });

  it('a non-tenant key with forAccount is a PermissionDeniedError', async () => {
    const plain = new PaymentsClient({ apiKey: PLAIN_KEY, baseUrl: mock.baseUrl, logLevel: 'off' });
    // Unscoped, the plain key works for its own account.
    expect((await plain.transactions.list()).totalCount).toBe(visible(mock.state.mainAccountId).length);
    const error = await rejection(plain.forAccount(mock.state.individualAccountId).transactions.list());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).message).toMatch(
      /X-Account-Id is only available to tenant API keys/,
    );
  });

  it('an account outside the tenancy (an unknown uuid) is a NotFoundError', async () => {
    const error = await rejection(
      clientFor(mock).forAccount('3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f').wallet.list(),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toMatch(/Account not found in your tenancy/);
  });

  it('a non-uuid account id is refused before sending', () => {
    expect(() => clientFor(mock).forAccount('acct-42')).toThrow(RequestValidationError);
    expect(requests).toEqual([]);
  });
});

describe('accounts', () => {
  it('create joins the tenancy; list, funding instructions and a scoped client see it', async () => {
    const client = clientFor(mock);
    const created = await client.accounts.create({
      type: 'individual',
      name: 'Bayo Ade',
      email: 'bayo@example.com',
    });
    expect(created).toMatchObject({
      id: expect.any(String),
      type: 'individual',
      name: 'Bayo Ade',
      email: 'bayo@example.com',
    });
    const id = created.id as string;
    expect(mock.account(id).tenantId).toBe(mock.state.mainAccountId);

    const first = await client.accounts.list({ pageSize: 2 });
    expect(first).toMatchObject({ page: 1, pageSize: 2, totalCount: 3, totalPages: 2, hasMore: true });
    expect(first.data[0]).toEqual(created);
    const all = await client.accounts.list({ pageSize: 2 }).toArray();
    expect(all.map((a) => a.id)).toEqual([id, mock.state.businessAccountId, mock.state.individualAccountId]);

    const funding = await client.accounts.fundingInstructions(id);
    expect(funding).toEqual({ accountId: id, currency: 'NGN', ...mock.account(id).funding });
    expect(funding.account_name).toBe('Bayo Ade');

    expect((await client.forAccount(id).transactions.list()).totalCount).toBe(0);
  });

  it('funding instructions of an account outside the tenancy: NotFoundError', async () => {
    const error = await rejection(
      clientFor(mock).accounts.fundingInstructions('3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f'),
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('createKycLink: an individual gets an active 72-hour link; a new one invalidates it', async () => {
    const client = clientFor(mock);
    const accountId = mock.state.individualAccountId;
    const before = Date.now();
    const link = await client.accounts.createKycLink(accountId);
    const after = Date.now();
    expect(link).toEqual({
      token: expect.any(String),
      url: expect.stringContaining(link.token),
      status: 'active',
      expiresAt: expect.any(String),
      accountId,
    });
    // 72 hours from when the mock handled the request, which lies between `before` and `after` however long
    // the call took: no assumption that it took less than a second.
    const expiresAt = Date.parse(link.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 72 * 3_600_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 72 * 3_600_000);
    const next = await client.accounts.createKycLink(accountId);
    expect(next.token).not.toBe(link.token);
    expect(mock.kyc.links(accountId).map((l) => l.status)).toEqual(['invalidated', 'active']);
    mock.kyc.complete(accountId);
    expect(mock.kyc.links(accountId).at(-1)?.status).toBe('completed');
  });

  it('createKycLink on a business account is a BadRequestError', async () => {
    const error = await rejection(clientFor(mock).accounts.createKycLink(mock.state.businessAccountId));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(/individual accounts only/);
    expect(mock.account(mock.state.businessAccountId).kycLinks).toEqual([]);
  });

  it('a non-tenant key cannot manage accounts', async () => {
    const plain = new PaymentsClient({ apiKey: PLAIN_KEY, baseUrl: mock.baseUrl, logLevel: 'off' });
    expect(await rejection(plain.accounts.list())).toBeInstanceOf(PermissionDeniedError);
  });
});

describe('broker', () => {
  it('createReferralLink returns { code, inviteUrl }, the same link when asked again', async () => {
    const client = clientFor(mock);
    const link = await client.broker.createReferralLink();
    expect(link).toEqual({ code: expect.any(String), inviteUrl: expect.stringContaining(link.code) });
    expect(mock.account().referral).toEqual(link);
    expect(await client.broker.createReferralLink()).toEqual(link);
    // Another account of the tenancy has its own.
    const other = await client.forAccount(mock.state.businessAccountId).broker.createReferralLink();
    expect(other.code).not.toBe(link.code);
  });
});
