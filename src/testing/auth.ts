import { isUuid } from '../rules/ids.js';
import { MockHttpError } from './http.js';
import type { MockApiKey } from './options.js';
import type { MockAccount, MockState } from './types.js';

/** Who is calling, and as which account. */
export interface Caller {
  key: MockApiKey;
  /** The key's own account (the tenant, when the key is a tenant key). */
  owner: MockAccount;
  /** The account the request runs as (the key's, or the `X-Account-Id` one). */
  account: MockAccount;
}

/** True when `account` is the tenant's own or sits in its tenancy. */
export function inTenancy(tenant: MockAccount, account: MockAccount | undefined): account is MockAccount {
  return account !== undefined && (account.id === tenant.id || account.tenantId === tenant.id);
}

/**
 * The Authentication section in order: key, IP allowlist, account standing, tenant scope, and the
 * allowlist requirement of money movement.
 */
export function authenticate(
  headers: Headers,
  state: MockState,
  clientIp: string,
  moneyMovement: boolean,
): Caller {
  const value = headers.get('x-api-key');
  if (!value) throw new MockHttpError(401, 'API key missing');
  const key = state.apiKeys.find((k) => k.key === value);
  // Keys pushed onto `mock.state.apiKeys` at run time may omit the account: they belong to the main one.
  const owner = key && state.accounts.get(key.accountId ?? state.mainAccountId);
  if (!key || !owner) throw new MockHttpError(401, 'Invalid or inactive API key');
  const allowlist = key.allowlist ?? [];
  if (allowlist.length > 0 && !allowlist.includes(clientIp)) {
    throw new MockHttpError(403, `IP address ${clientIp} not authorized`);
  }
  if (key.deleted) {
    throw new MockHttpError(401, 'Account does not exist.', { code: 'ACCOUNT_DOES_NOT_EXIST' });
  }
  if (key.restricted) {
    throw new MockHttpError(403, 'This account has been deactivated or blacklisted', {
      code: 'ACCOUNT_RESTRICTED',
      accountBlocked: true,
    });
  }
  if (key.apiAccess === false) throw new MockHttpError(403, 'API access has been disabled for this account');
  let account = owner;
  const scope = headers.get('x-account-id');
  // The spec: omitted acts as the key's own account, and a value that is not a valid uuid (a blank one too) is 400.
  if (scope !== null) {
    if (!isUuid(scope.trim())) throw new MockHttpError(400, 'X-Account-Id must be a valid UUID');
    if (!key.tenant) throw new MockHttpError(403, 'X-Account-Id is only available to tenant API keys');
    const target = state.accounts.get(scope.trim().toLowerCase());
    if (!inTenancy(owner, target)) throw new MockHttpError(404, 'Account not found in your tenancy');
    account = target;
  }
  if (moneyMovement && allowlist.length === 0) {
    throw new MockHttpError(
      403,
      'This endpoint requires IP whitelisting. Please add at least one whitelisted IP address to your API key.',
    );
  }
  return { key, owner, account };
}
