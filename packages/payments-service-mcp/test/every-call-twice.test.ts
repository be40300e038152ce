import type { CallToolResult, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { PaymentsClient } from 'payments-service-sdk';
import { KNOWN_ACCOUNT_NUMBER, type MockServer, startMockServer } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BENEFICIARY,
  CANARY_KEY,
  connect,
  data,
  envFor,
  everything,
  paid,
  type Session,
  usd,
} from './helpers.js';

/**
 * A host that runs every tool call twice with the same arguments, as some have (anthropics/claude-code#36149):
 * once one after the other, once both at the same time. Reads answer the same twice; `send_payout` moves money
 * once and both answers say which payout; each write does what its `idempotentHint` says.
 */

let server: MockServer;
let session: Session;
const asked: ElicitRequest['params'][] = [];
const results: CallToolResult[] = [];
let beneficiaryId: string;
let doomedBeneficiaryId: string;
let payerNameId: string;

/** The same call twice in a row, then twice at once. */
async function twice(name: string, args: Record<string, unknown>) {
  const call = async () => {
    const result = await session.call(name, args);
    results.push(result);
    return result;
  };
  const sequential = [await call(), await call()];
  const parallel = await Promise.all([call(), call()]);
  return { sequential, parallel, all: [...sequential, ...parallel] };
}

beforeAll(async () => {
  // No dedupe by reference at the service: only the MCP server stands between a repeated call and a payout.
  server = await startMockServer({
    apiKeys: [{ key: CANARY_KEY, tenant: true, allowlist: ['127.0.0.1'] }],
    dedupeByReference: false,
  });
  const sdk = new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: server.baseUrl, logLevel: 'off' });
  const beneficiary = {
    currency: 'NGN',
    account_name: 'ADAEZE KEMI OKAFOR',
    account_number: KNOWN_ACCOUNT_NUMBER,
    bank_code: '000013',
    bank_name: 'Guaranty Trust Bank',
  } as const;
  beneficiaryId = (await sdk.beneficiaries.create(beneficiary)).id;
  doomedBeneficiaryId = (await sdk.beneficiaries.create(beneficiary)).id;
  const named = await sdk.payerNames.create({
    entity_type: 'business',
    display_name: 'Twice Trading Ltd',
    country: 'NG',
    address_line: '1 Marina',
    city: 'Lagos',
    state_province: 'Lagos',
  });
  payerNameId = named.id;
  server.mock.payerNames.review(payerNameId, 'approve');
  session = await connect(
    envFor(server, {
      PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000,NGN=50000',
      PAYMENTS_MCP_CONFIRM_ABOVE: 'USD=100',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,20',
    }),
    ['--allow-payouts', '--allow-beneficiary-writes', '--allow-payer-name-writes'],
    (question) => {
      asked.push(question);
      return { action: 'accept', content: { confirm: true } };
    },
  );
}, 60_000);
afterAll(async () => {
  expect(results.some((r) => everything(r).includes(CANARY_KEY))).toBe(false);
  expect(session.stderr().includes(CANARY_KEY)).toBe(false);
  await session?.close();
  await server?.close();
});

describe('a host that calls every tool twice', () => {
  it.each([
    ['list_banks', {}],
    ['lookup_account_name', { bankCode: '000013', accountNumber: KNOWN_ACCOUNT_NUMBER }],
    ['list_supported_currencies', {}],
    ['list_transactions', { pageSize: 5 }],
    ['find_payout_by_reference', { externalReference: 'twice-never-sent' }],
    ['list_payer_names', {}],
    ['get_payer_name', { payerNameId: 'late' }],
    ['list_beneficiaries', {}],
    ['get_beneficiary', { beneficiaryId: 'late' }],
  ])('%s: harmless, the same answer each time', async (name, given) => {
    const ids: Record<string, string> = { payerNameId, beneficiaryId };
    const args = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === 'late' ? ids[k] : v]));
    const { sequential, parallel, all } = await twice(name, args);
    for (const result of all) expect(result.isError, name).toBeFalsy();
    expect(data(sequential[1]!)).toEqual(data(sequential[0]!));
    expect(data(parallel[0]!)).toEqual(data(sequential[0]!));
    expect(data(parallel[1]!)).toEqual(data(sequential[0]!));
  });

  it.each([
    ['USD, above the confirmation threshold', (ref: string) => usd(`${ref}-usd`, '150.00')],
    [
      'NGN, whose reference the service does not deduplicate',
      (ref: string) => ({
        externalReference: `${ref}-ngn`,
        amount: '2500.00',
        currency: 'NGN',
        beneficiary: BENEFICIARY,
        nameEnquiry: {
          accountNumber: KNOWN_ACCOUNT_NUMBER,
          bankCode: '000013',
          accountName: 'ADAEZE KEMI OKAFOR',
        },
      }),
    ],
  ])('send_payout (%s): one payout per pair, and both answers name it', async (_, payout) => {
    const before = asked.length;
    const call = async (reference: string) => {
      const result = await session.call('send_payout', payout(reference));
      results.push(result);
      return result;
    };
    // Each pair has a reference of its own, so the parallel pair is a new payout too.
    const sequential = [await call('twice-seq'), await call('twice-seq')];
    const parallel = await Promise.all([call('twice-par'), call('twice-par')]);
    for (const [a, b] of [sequential, parallel]) {
      expect(data(a!).status).toBe('created');
      expect(data(b!).status).toBe('created');
      expect(data(b!).payout.id).toBe(data(a!).payout.id);
    }
    expect(data(sequential[1]!)).toMatchObject({ repeat: true, attempts: 1 });
    expect(paid(server, payout('twice-seq').externalReference)).toBe(1);
    expect(paid(server, payout('twice-par').externalReference)).toBe(1);
    // Above the threshold a person was asked once per payout, not once per call.
    expect(asked.length - before).toBe(payout('twice').currency === 'USD' ? 2 : 0);
  });

  it('update_beneficiary, set_default_payer_name, archive_payer_name: the same result each time', async () => {
    const update = await twice('update_beneficiary', {
      beneficiaryId,
      beneficiary: {
        currency: 'NGN',
        account_name: 'ADAEZE KEMI OKAFOR',
        account_number: KNOWN_ACCOUNT_NUMBER,
        bank_code: '000013',
        bank_name: 'GTBank',
      },
    });
    const byDefault = await twice('set_default_payer_name', { payerNameId });
    const archive = await twice('archive_payer_name', { payerNameId });
    for (const { all } of [update, byDefault, archive]) {
      for (const result of all) expect(result.isError).toBeFalsy();
    }
    expect(update.all.map((r) => data(r).beneficiary.bank_name)).toEqual(Array(4).fill('GTBank'));
    expect(byDefault.all.map((r) => data(r).payerName.isDefault)).toEqual(Array(4).fill(true));
    expect(archive.all.map((r) => data(r).payerName.status)).toEqual(Array(4).fill('archived'));
  });

  it('delete_beneficiary: gone after the first; the others find nothing to delete', async () => {
    const { sequential, parallel } = await twice('delete_beneficiary', {
      beneficiaryId: doomedBeneficiaryId,
    });
    expect(sequential[0]!.isError).toBeFalsy();
    for (const later of [sequential[1]!, ...parallel]) {
      // The spec answers an unknown beneficiary id with 400 `Beneficiary not found`.
      expect(data(later).error).toMatchObject({
        class: 'BadRequestError',
        status: 400,
        message: expect.stringContaining('Beneficiary not found'),
      });
    }
  });

  it('create_payer_name: one payer name (the service refuses the same name again); create_beneficiary: one each call, as its hint says', async () => {
    const payerName = {
      entity_type: 'business',
      display_name: 'Twice Again Ltd',
      country: 'NG',
      address_line: '1 Marina',
      city: 'Lagos',
      state_province: 'Lagos',
    };
    const created = await twice('create_payer_name', { payerName });
    expect(created.sequential[0]!.isError).toBeFalsy();
    for (const later of created.all.slice(1)) expect(data(later).error).toMatchObject({ status: 409 });
    const names = [...server.mock.account().payerNames.values()].filter((p) => p.name === 'Twice Again Ltd');
    expect(names).toHaveLength(1);

    const count = () => server.mock.account().beneficiaries.size;
    const before = count();
    const beneficiary = { currency: 'USD', withdrawal_method: 'ach' };
    const tool = (await session.client.listTools()).tools.find((t) => t.name === 'create_beneficiary')!;
    expect(tool.annotations?.idempotentHint).toBe(false);
    const { all } = await twice('create_beneficiary', {
      beneficiary: {
        ...beneficiary,
        account_name: 'Blue Harbor Imports LLC',
        account_number: '12345678',
        routing_number: '021000021',
        bank_name: 'JPMorgan Chase Bank',
        bank_address: { city: 'New York', country: 'US' },
        account_owner_type: 'business',
        account_category: 'checking',
      },
    });
    // A valid body: each of the four calls makes a beneficiary, as the tool's hint says.
    expect(all.map((r) => r.isError ?? false)).toEqual([false, false, false, false]);
    expect(count() - before).toBe(4);
  });
});
