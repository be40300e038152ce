import type { FaultRequest } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_KEY, connect, data, envFor, everything, type Session, useMockServer } from './helpers.js';

const mock = useMockServer();
let session: Session;
/** Every request the mock received while a case ran. */
let seen: FaultRequest[] = [];

beforeAll(async () => {
  session = await connect(
    envFor(mock.server(), {
      PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000',
      PAYMENTS_MCP_ALLOW_BENEFICIARY_WRITES: '1',
    }),
    ['--allow-payouts'],
  );
  // A fault that never fires: it only sees each request go by.
  mock
    .server()
    .mock.faults.next({ status: 500, times: Number.MAX_SAFE_INTEGER, match: (r) => !seen.push(r) });
});
afterAll(async () => {
  expect(session.stderr().includes(CANARY_KEY)).toBe(false);
  await session?.close();
});

describe("input the tool's own schema refuses", () => {
  it.each([
    ['list_transactions', { pageSize: 101 }, ['pageSize']],
    ['list_transactions', { page: 'two' }, ['page']],
    ['list_beneficiaries', { pageSize: 101 }, ['pageSize']],
    ['list_payer_names', { archived: 'yes' }, ['archived']],
    ['get_beneficiary', {}, ['beneficiaryId']],
    ['lookup_account_name', { accountNumber: '0123456788' }, ['bankCode']],
    ['create_beneficiary', { beneficiary: 'NGN' }, ['beneficiary']],
    [
      'send_payout',
      {
        amount: '10.00',
        currency: 'NGN',
        beneficiary: { accountName: 'A', accountNumber: '1', bankName: 'B', bankCode: '2', email: 'e' },
      },
      ['externalReference'],
    ],
    [
      'send_payout',
      {
        externalReference: 'schema-1',
        amount: '10.00',
        currency: 'NGN',
        beneficiary: { accountName: 'A', accountNumber: '1', bankName: 'B', bankCode: '2' },
      },
      ['beneficiary', 'email'],
    ],
  ])(
    '%s %j is a RequestValidationError naming the field, in the documented shape, before any request',
    async (tool, args, path) => {
      seen = [];
      const result = await session.call(tool, args);
      expect(result.isError).toBe(true);
      expect(data(result)).toEqual({
        error: {
          class: 'RequestValidationError',
          message: expect.stringContaining(path.join('.')),
          issues: [{ path, message: expect.any(String) }],
        },
      });
      expect(result.content[0]).toMatchObject({
        type: 'text',
        text: expect.stringMatching(/^RequestValidationError: Invalid request: /),
      });
      expect(seen).toEqual([]);
      expect(everything(result).includes(CANARY_KEY)).toBe(false);
    },
  );

  it('the same tools with valid input do reach the service (the check above sees requests)', async () => {
    seen = [];
    const result = await session.call('list_transactions', { pageSize: 100, page: 2 });
    expect(result.isError).toBeFalsy();
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /transactions']);
  });

  it('says "is required" of a missing field, and names every refused field at once', async () => {
    const result = await session.call('list_transactions', { page: 'two', pageSize: 0 });
    expect(data(result).error.issues.map((i: { path: string[] }) => i.path)).toEqual([
      ['page'],
      ['pageSize'],
    ]);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('page') });
    const missing = await session.call('get_beneficiary', {});
    expect(data(missing).error.issues).toEqual([{ path: ['beneficiaryId'], message: 'is required' }]);
  });

  it('leaves the listed schemas as they were: no default, the same required fields', async () => {
    const { tools } = await session.client.listTools();
    const payout = tools.find((t) => t.name === 'send_payout')!.inputSchema;
    expect(payout.required).toEqual(['externalReference', 'amount', 'currency', 'beneficiary']);
    expect(JSON.stringify(tools)).not.toContain('"default"');
  });
});
