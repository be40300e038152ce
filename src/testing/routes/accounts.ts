import { isUuid } from '../../rules/ids.js';
import { inTenancy } from '../auth.js';
import {
  MockHttpError,
  pageOf,
  type Route,
  type RouteContext,
  readJsonObject,
  readPaging,
  validationFailed,
} from '../http.js';
import { createAccount } from '../state.js';
import type { MockAccount } from '../types.js';

const KYC_VALIDITY_MS = 72 * 3_600_000;

function requireTenant(ctx: RouteContext): void {
  if (!ctx.key.tenant) throw new MockHttpError(403, 'Only tenant API keys can manage accounts');
}

/** The account named in the path: the tenant's own or one in its tenancy, else 404. */
function target(ctx: RouteContext): MockAccount {
  const id = (ctx.params.id ?? '').toLowerCase();
  if (!isUuid(id)) {
    throw validationFailed([{ path: ['accountId'], message: 'must be a uuid' }]);
  }
  const account = ctx.state.accounts.get(id);
  if (!inTenancy(ctx.owner, account)) throw new MockHttpError(404, 'Account not found in your tenancy');
  return account;
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'tenant'
  );
}

/** Tenant accounts, KYC links and referral links. */
export const accountRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/accounts',
    handle: async (ctx) => {
      requireTenant(ctx);
      const body = await readJsonObject(ctx.request);
      const type = body.type ?? 'individual';
      if (type !== 'individual' && type !== 'business') {
        throw validationFailed([{ path: ['type'], message: 'must be one of: individual, business' }]);
      }
      const given = [body.first_name, body.last_name].filter((v) => typeof v === 'string').join(' ');
      const name =
        typeof body.name === 'string' && body.name.trim()
          ? body.name.trim()
          : typeof body.business_name === 'string' && body.business_name.trim()
            ? body.business_name.trim()
            : given || `Account ${ctx.state.accounts.size + 1}`;
      const { id: _ignored, ...record } = body;
      const account = createAccount(
        ctx.rng,
        { type, name, tenantId: ctx.owner.id, record },
        { now: ctx.now, historyEnd: ctx.now, payerNamesEnabled: ctx.owner.payerNamesEnabled },
      );
      ctx.state.accounts.set(account.id, account);
      return { status: 201, message: 'Account created successfully', data: { ...account.record } };
    },
  },
  {
    method: 'GET',
    pattern: '/accounts',
    handle: (ctx) => {
      requireTenant(ctx);
      const rows = [...ctx.state.accounts.values()].filter((a) => a.tenantId === ctx.owner.id).reverse();
      const page = pageOf(rows, readPaging(ctx.query, undefined, ctx.settings.invented.pageSizeLimit));
      return {
        message: 'Accounts retrieved successfully',
        data: {
          accounts: page.rows.map((a) => ({ ...a.record })),
          totalCount: page.totalCount,
          page: page.page,
          pageSize: page.pageSize,
          totalPages: page.totalPages,
          hasMore: page.page < page.totalPages,
        },
        listKey: 'accounts',
      };
    },
  },
  {
    method: 'GET',
    pattern: '/accounts/{id}/funding-instructions',
    handle: (ctx) => {
      const account = target(ctx);
      return {
        message: 'Funding instructions retrieved successfully',
        data: { accountId: account.id, currency: 'NGN', ...account.funding },
      };
    },
  },
  {
    method: 'POST',
    pattern: '/accounts/{id}/kyc-link',
    handle: (ctx) => {
      const account = target(ctx);
      if (account.type !== 'individual') {
        throw new MockHttpError(
          400,
          'KYC links are for individual accounts only; use the related-person link for a business account',
        );
      }
      // "An account that already passed is left untouched": no new link, none invalidated. The endpoint's one
      // success answer carries a link, so it is the completed one (the spec shows no other response for this).
      const passed = account.kycLinks.findLast((l) => l.status === 'completed');
      if (passed) {
        const { createdAt: _created, ...data } = passed;
        return { status: 201, message: 'KYC link generated successfully', data };
      }
      // A new link replaces every earlier one; a failed (rejected) attempt stays recorded as rejected.
      for (const link of account.kycLinks) if (link.status === 'active') link.status = 'invalidated';
      const token = ctx.rng.hex(32);
      const link = {
        token,
        url: `https://${slug(ctx.owner.name)}.verify.payments.mock/kyc/${token}`,
        status: 'active' as const,
        expiresAt: new Date(ctx.now + KYC_VALIDITY_MS).toISOString(),
        accountId: account.id,
        createdAt: new Date(ctx.now).toISOString(),
      };
      account.kycLinks.push(link);
      const { createdAt: _created, ...data } = link;
      return { status: 201, message: 'KYC link generated successfully', data };
    },
  },
  {
    method: 'POST',
    pattern: '/broker/referral-link',
    handle: (ctx) => {
      // One code per account: asking again returns the same link.
      ctx.account.referral ??= (() => {
        const code = ctx.rng.code(8);
        return { code, inviteUrl: `https://app.payments.mock/signup?ref=${code}` };
      })();
      return { message: 'Referral link created successfully', data: { ...ctx.account.referral } };
    },
  },
];
