// Real HTTP over 127.0.0.1: this file deliberately starts NO MSW server (MSW would intercept fetch).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  NotFoundError,
  PaymentsClient,
  PayoutMayHaveMovedError,
  PermissionDeniedError,
} from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import {
  BANKS,
  DEFAULT_API_KEY,
  KNOWN_ACCOUNT_NUMBER,
  type MockServer,
  startMockServer,
  UNKNOWN_ACCOUNT_NUMBER,
} from '../../src/testing/index.js';
import { createPayerNameWithDocuments } from '../../src/uploads/index.js';
import { ngnPayout, rejection } from '../helpers/fixtures.js';

let server: MockServer;
let client: PaymentsClient;

// These tests find NGN payouts by the caller's reference, which the mock keeps only on request (the spec has
// the service assign NGN references; test/mock-fidelity-ngn.test.ts covers that default).
beforeAll(async () => {
  server = await startMockServer({ port: 0, assignNgnReferences: false });
  client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.baseUrl, logLevel: 'off' });
});
afterEach(() => server.mock.reset());
afterAll(async () => {
  await server.close();
});

describe('startMockServer on 127.0.0.1', () => {
  it('listens on a free loopback port under the API prefix', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(server.baseUrl).toBe(`${server.url}/api/v1/external`);
    expect(client.baseUrl).toBe(server.baseUrl);
  });

  it('banks.list and banks.lookup', async () => {
    expect(await client.banks.list()).toEqual(BANKS);
    const account = await client.banks.lookup({ bankCode: '000013', accountNumber: KNOWN_ACCOUNT_NUMBER });
    expect(account.accountName).toBe('ADAEZE KEMI OKAFOR');
    const error = await rejection(
      client.banks.lookup({ bankCode: '000013', accountNumber: UNKNOWN_ACCOUNT_NUMBER }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('transactions.list walks the seeded history', async () => {
    const rows = await client.transactions.list({ pageSize: 25 }).toArray();
    const expected = server.mock
      .account()
      .transactions.map((t) => t.row)
      .filter((r) => r.status !== 'failed');
    expect(rows).toEqual(expected);
  });

  it('payouts.create deducts from the wallet', async () => {
    const payout = await client.payouts.create(ngnPayout('lo-1'));
    expect(payout).toMatchObject({
      external_reference: 'lo-1',
      destination_amount: 100_000,
      fee_amount: 1_000,
      amount: 101_000,
    });
    const ngn = (await client.wallet.list()).find((w) => w.currency === 'NGN');
    expect(ngn?.balance).toBe(2_500_000_000 - 101_000);
  });

  it('a destroyed socket after commit: create fails, lookupBeforeRetry recovers with one payout', async () => {
    server.mock.faults.dropAfterCommit('POST /payouts');
    const lost = await rejection(client.payouts.create(ngnPayout('lo-2')));
    expect(lost).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((lost as PayoutMayHaveMovedError).cause).toBeInstanceOf(APIConnectionError);
    expect(server.mock.account().payouts.has('lo-2')).toBe(true);

    server.mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(client, ngnPayout('lo-3'), { visibilityWaits: [20, 50] });
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });
    expect(
      server.mock.account().transactions.filter((t) => t.row.external_reference === 'lo-3'),
    ).toHaveLength(1);
  });

  it('a multipart payer-name upload streams over real HTTP', async () => {
    const created = await createPayerNameWithDocuments(client, {
      entity_type: 'business',
      display_name: 'Loopback Ltd',
      country: 'NG',
      address_line: '1 Marina Road',
      city: 'Lagos',
      state_province: 'Lagos',
      documents: [
        { file: Buffer.from('%PDF-1.4 loopback'), fileName: 'cert.pdf', description: 'Certificate' },
        {
          file: new Blob([new Uint8Array(70_000)], { type: 'image/jpeg' }),
          fileName: 'id.jpg',
          description: 'ID',
        },
      ],
    });
    expect(created.documents.map((d) => [d.fileName, d.description, d.fileType, d.fileSize])).toEqual([
      ['cert.pdf', 'Certificate', 'application/pdf', 17],
      ['id.jpg', 'ID', 'image/jpeg', 70_000],
    ]);
  });

  it('tenancy: forAccount scopes, a foreign uuid is 404, a non-tenant key 403', async () => {
    const scoped = client.forAccount(server.mock.state.individualAccountId);
    expect((await scoped.transactions.list()).totalCount).toBe(
      server.mock
        .account(server.mock.state.individualAccountId)
        .transactions.filter((t) => t.row.status !== 'failed').length,
    );
    expect(
      await rejection(client.forAccount('3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f').wallet.list()),
    ).toBeInstanceOf(NotFoundError);
    server.mock.state.apiKeys.push({ key: 'sk_test_plain', allowlist: [] });
    const plain = client.withOptions({ apiKey: 'sk_test_plain' });
    expect(
      await rejection(plain.forAccount(server.mock.state.individualAccountId).banks.list()),
    ).toBeInstanceOf(PermissionDeniedError);
  });
});

describe('after close', () => {
  it('a closed server refuses connections', async () => {
    const other = await startMockServer({ port: 0 });
    const c = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: other.baseUrl,
      logLevel: 'off',
      maxRetries: 0,
    });
    expect(await c.banks.list()).toHaveLength(13);
    await other.close();
    expect(await rejection(c.banks.list())).toBeInstanceOf(APIConnectionError);
  });
});
