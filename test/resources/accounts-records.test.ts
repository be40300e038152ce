import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as classic from 'zod';
import * as mini from 'zod/mini';
import {
  AcceptedButUnreadableError,
  type Account,
  type FundingInstructions,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import { ACCOUNT_ID, BASE, makeClient, ok, useServer } from '../helpers/server.js';

// Spec: "Fields of the wallet, virtual-account listing, tenant account, ... records: not shown." and "Method,
// path or payload shape of ... POST and GET /accounts, GET /accounts/{accountId}/funding-instructions: not
// shown." A tenant key scopes a request with `X-Account-Id` (account uuid). The SDK invents no account fields:
// without a schema the records pass through; with one, its output type is the result type, checked at run time.

const server = useServer();

function accountsPage(rows: unknown[]) {
  server.use(
    http.get(`${BASE}/accounts`, () =>
      ok({ accounts: rows, totalCount: rows.length, page: 1, pageSize: 20, totalPages: 1, hasMore: false }),
    ),
  );
}

describe('accounts without a schema: records pass through, no field required', () => {
  it('list keeps a record that has no id', async () => {
    accountsPage([{ name: 'No id here' }, { id: ACCOUNT_ID, tier: 3 }]);
    const rows = await makeClient().accounts.list().toArray();
    expectTypeOf(rows).toEqualTypeOf<Account[]>();
    expect(rows).toEqual([{ name: 'No id here' }, { id: ACCOUNT_ID, tier: 3 }]);
  });
});

describe('accounts.list(params, { schema }): the caller types the records', () => {
  const TenantAccount = classic.looseObject({ id: classic.uuid(), name: classic.string().optional() });

  it('a classic zod schema types each row, so forAccount(a.id) needs no typeof check', async () => {
    accountsPage([{ id: ACCOUNT_ID, name: 'Ada Stores', tier: 3 }]);
    const client = makeClient();
    const rows = await client.accounts.list({ pageSize: 20 }, { schema: TenantAccount }).toArray();
    expectTypeOf(rows[0]!.id).toEqualTypeOf<string>();
    expect(rows).toEqual([{ id: ACCOUNT_ID, name: 'Ada Stores', tier: 3 }]);
    expect(client.forAccount(rows[0]!.id).accountId).toBe(ACCOUNT_ID);
  });

  it('a row that does not match is a ResponseValidationError naming the row and field', async () => {
    accountsPage([{ id: ACCOUNT_ID }, { name: 'no id' }]);
    const error = await makeClient()
      .accounts.list({}, { schema: TenantAccount })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path)).toEqual([['1', 'id']]);
  });

  it("a format in the caller's schema (z.uuid()) is checked: a caller's schema is never fast-pathed", async () => {
    accountsPage([{ id: 'not-a-uuid' }]);
    const error = await makeClient()
      .accounts.list({}, { schema: classic.looseObject({ id: classic.uuid() }) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it('per-call options still apply beside the schema', async () => {
    let header: string | null = null;
    server.use(
      http.get(`${BASE}/accounts`, ({ request }) => {
        header = request.headers.get('x-trace');
        return ok({ accounts: [], totalCount: 0, page: 1, pageSize: 20, totalPages: 0 });
      }),
    );
    await makeClient()
      .accounts.list({}, { schema: TenantAccount, headers: { 'X-Trace': 't1' } })
      .toArray();
    expect(header).toBe('t1');
  });

  it('something that is not a zod schema is refused before sending', async () => {
    const error = await makeClient()
      .accounts.list({}, { schema: { parse: () => ({ id: 'x' }) } as never })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('schema');
  });
});

describe('accounts.create and fundingInstructions with { schema }', () => {
  const Created = mini.looseObject({ id: mini.string() });

  it('create: a zod/mini schema types the record', async () => {
    server.use(http.post(`${BASE}/accounts`, () => ok({ id: ACCOUNT_ID, type: 'individual' }, 201)));
    const account = await makeClient().accounts.create({ type: 'individual' }, { schema: Created });
    expectTypeOf(account.id).toEqualTypeOf<string>();
    expect(account).toEqual({ id: ACCOUNT_ID, type: 'individual' });
  });

  it('create: a mismatch is AcceptedButUnreadableError (a ResponseValidationError): the account exists', async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/accounts`, () => {
        calls++;
        return ok({ accountId: ACCOUNT_ID }, 201);
      }),
    );
    const error = await makeClient()
      .accounts.create({}, { schema: Created })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcceptedButUnreadableError);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(calls).toBe(1);
  });

  it('fundingInstructions: typed with a schema, a pass-through record without one', async () => {
    const body = { bank_name: 'Wema', account_number: '0123456789' };
    server.use(http.get(`${BASE}/accounts/${ACCOUNT_ID}/funding-instructions`, () => ok(body)));
    const Funding = classic.object({ bank_name: classic.string(), account_number: classic.string() });
    const typed = await makeClient().accounts.fundingInstructions(ACCOUNT_ID, { schema: Funding });
    expectTypeOf(typed).toEqualTypeOf<{ bank_name: string; account_number: string }>();
    expect(typed).toEqual(body);
    const plain = await makeClient().accounts.fundingInstructions(ACCOUNT_ID);
    expectTypeOf(plain).toEqualTypeOf<FundingInstructions>();
    expect(plain).toEqual(body);
    server.use(http.get(`${BASE}/accounts/${ACCOUNT_ID}/funding-instructions`, () => ok({ bank_name: 1 })));
    const mismatch = await makeClient()
      .accounts.fundingInstructions(ACCOUNT_ID, { schema: Funding })
      .catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(ResponseValidationError);
    expect((mismatch as ResponseValidationError).issues.map((i) => i.path)).toEqual([
      ['bank_name'],
      ['account_number'],
    ]);
  });
});
