import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BadRequestError, RequestValidationError } from '../../src/index.js';
import { ACCOUNT_ID, BASE, fail, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();

describe('accounts', () => {
  it('create posts the body as given and is not retried', async () => {
    let calls = 0;
    let body: unknown;
    server.use(
      http.post(`${BASE}/accounts`, async ({ request }) => {
        calls++;
        body = await request.json();
        return ok({ id: ACCOUNT_ID, type: 'individual' }, 201);
      }),
    );
    const account = await makeClient().accounts.create({ type: 'individual', email: 'a@b.test' });
    expect(account).toEqual({ id: ACCOUNT_ID, type: 'individual' });
    expect(body).toEqual({ type: 'individual', email: 'a@b.test' });
    server.use(
      http.post(`${BASE}/accounts`, () => {
        calls++;
        return fail(503, 'busy');
      }),
    );
    calls = 0;
    await expect(makeClient().accounts.create({})).rejects.toThrow(/503/);
    expect(calls).toBe(1);
  });

  it('list walks flat pages with hasMore', async () => {
    server.use(
      http.get(`${BASE}/accounts`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return ok({
          accounts: [{ id: `a${page}` }],
          totalCount: 3,
          page,
          pageSize: 1,
          totalPages: 3,
          hasMore: page < 3,
        });
      }),
    );
    const ids = (await makeClient().accounts.list({ pageSize: 1 }).toArray()).map((a) => a.id);
    expect(ids).toEqual(['a1', 'a2', 'a3']);
  });

  it('fundingInstructions and createKycLink encode a uuid and refuse anything else', async () => {
    server.use(
      http.get(`${BASE}/accounts/:id/funding-instructions`, ({ params }) =>
        ok({ accountId: params.id, bank: 'X' }),
      ),
      http.post(`${BASE}/accounts/:id/kyc-link`, ({ params }) =>
        ok(
          {
            token: 'tok',
            url: 'https://kyc.test/tok',
            status: 'active',
            expiresAt: '2026-11-25T00:00:00Z',
            accountId: params.id,
          },
          201,
        ),
      ),
    );
    const client = makeClient();
    expect(await client.accounts.fundingInstructions(ACCOUNT_ID)).toEqual({
      accountId: ACCOUNT_ID,
      bank: 'X',
    });
    const link = await client.accounts.createKycLink(ACCOUNT_ID);
    expect(link).toMatchObject({ status: 'active', accountId: ACCOUNT_ID });
    for (const bad of ['../x', 'a/b', '%2F', 'x?y', '']) {
      const error = await client.accounts.createKycLink(bad).catch((e: unknown) => e);
      expect(error, bad).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('accountId');
    }
  });

  it('a business account gets BadRequestError from createKycLink', async () => {
    server.use(
      http.post(`${BASE}/accounts/:id/kyc-link`, () => fail(400, 'KYC links are for individual accounts')),
    );
    await expect(makeClient().accounts.createKycLink(ACCOUNT_ID)).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe('broker', () => {
  it('createReferralLink reads the success envelope', async () => {
    server.use(
      http.post(`${BASE}/broker/referral-link`, () =>
        ok({ code: 'ABC123', inviteUrl: 'https://x.test/r/ABC123' }),
      ),
    );
    expect(await makeClient().broker.createReferralLink()).toEqual({
      code: 'ABC123',
      inviteUrl: 'https://x.test/r/ABC123',
    });
  });
});
