import { isUuid } from '../../rules/ids.js';
import { inTenancy } from '../auth.js';
import { flatList, MockHttpError, type RouteContext, type Routes, validationFailed } from '../http.js';
import { createAccount } from '../state.js';
import type { MockAccount } from '../types.js';

const KYC_VALIDITY_MS = 72 * 3_600_000;

function requireTenant(ctx: RouteContext): void {
  if (!ctx.key.tenant) throw new MockHttpError(403, 'Only tenant API keys can manage accounts');
}

/** The account named in the path: the tenant's own or one in its tenancy, else 404. */
function target(ctx: RouteContext): MockAccount {
  const id = (ctx.params.id ?? '').toLowerCase();
  if (!isUuid(id)) throw validationFailed([{ path: ['accountId'], message: 'must be a uuid' }]);
  const account = ctx.state.accounts.get(id);
  if (!inTenancy(ctx.owner, account)) throw new MockHttpError(404, 'Account not found in your tenancy');
  return account;
}

async function create(ctx: RouteContext) {
  requireTenant(ctx);
  const body = await ctx.body();
  const type = body.type ?? 'individual';
  if (type !== 'individual' && type !== 'business') {
    throw validationFailed([{ path: ['type'], message: 'must be one of: individual, business' }]);
  }
  const given = [body.first_name, body.last_name].filter((v) => typeof v === 'string').join(' ');
  const named = [body.name, body.business_name].map((v) => (typeof v === 'string' ? v.trim() : ''));
  const name = named.find(Boolean) || given || `Account ${ctx.state.accounts.size + 1}`;
  const { id: _ignored, ...record } = body;
  const account = createAccount(
    ctx.rng,
    { type, name, tenantId: ctx.owner.id, record },
    {
      now: ctx.now,
      historyEnd: ctx.now,
      payerNamesEnabled: ctx.owner.payerNamesEnabled,
      currencies: ctx.state.currencies.map((c) => c.code),
    },
  );
  ctx.state.accounts.set(account.id, account);
  return { status: 201, message: 'Account created successfully', data: account.record };
}

function list(ctx: RouteContext) {
  requireTenant(ctx);
  const rows = [...ctx.state.accounts.values()].filter((a) => a.tenantId === ctx.owner.id).reverse();
  const result = flatList(ctx, 'Accounts retrieved successfully', 'accounts', rows, (a) => a.record);
  const data = result.data as { page: number; totalPages: number; hasMore?: boolean };
  data.hasMore = data.page < data.totalPages;
  return result;
}

/**
 * "An account that already passed is left untouched": no new link, none invalidated. The endpoint's one success
 * answer carries a link, so it is the completed one (the spec shows no other response for this). Otherwise a
 * new link replaces every earlier one; a failed (rejected) attempt stays recorded as rejected.
 */
function kycLink(ctx: RouteContext) {
  const account = target(ctx);
  if (account.type !== 'individual') {
    throw new MockHttpError(
      400,
      'KYC links are for individual accounts only; use the related-person link for a business account',
    );
  }
  let link = account.kycLinks.findLast((l) => l.status === 'completed');
  if (!link) {
    for (const old of account.kycLinks) if (old.status === 'active') old.status = 'invalidated';
    const token = ctx.rng.hex(32);
    const tenant = ctx.owner.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    link = {
      token,
      url: `https://${tenant || 'tenant'}.verify.payments.mock/kyc/${token}`,
      status: 'active' as const,
      expiresAt: new Date(ctx.now + KYC_VALIDITY_MS).toISOString(),
      accountId: account.id,
      createdAt: new Date(ctx.now).toISOString(),
    };
    account.kycLinks.push(link);
  }
  const { createdAt: _created, ...data } = link;
  return { status: 201, message: 'KYC link generated successfully', data };
}

/** Tenant accounts, KYC links and referral links. */
export const accountRoutes: Routes = {
  'POST /accounts': create,
  'GET /accounts': list,
  'GET /accounts/{id}/funding-instructions': (ctx) => {
    const account = target(ctx);
    return {
      message: 'Funding instructions retrieved successfully',
      data: { accountId: account.id, currency: 'NGN', ...account.funding },
    };
  },
  'POST /accounts/{id}/kyc-link': kycLink,
  'POST /broker/referral-link': (ctx) => {
    // One code per account: asking again returns the same link.
    const code = ctx.account.referral?.code ?? ctx.rng.code(8);
    ctx.account.referral ??= { code, inviteUrl: `https://app.payments.mock/signup?ref=${code}` };
    return { message: 'Referral link created successfully', data: ctx.account.referral };
  },
};
