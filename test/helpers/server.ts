import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { type ClientOptions, currencyDigits, PaymentsClient, toMinorUnits } from '../../src/index.js';
import { STRICT } from './msw-strict.js';

/** A key no test output may ever contain. */
export const CANARY_KEY = 'sk_test_CANARY_7f3a9c1e5b';
export const ORIGIN = 'https://payments.test';
export const BASE = `${ORIGIN}/api/v1/external`;
export const ACCOUNT_ID = '3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f';

/** One MSW server per test file; any request without a handler fails the test. */
export function useServer() {
  const server = setupServer();
  beforeAll(() => server.listen(STRICT));
  afterEach(() => {
    server.resetHandlers();
    // A test that faked the clock leaves no fake timers to the tests after it.
    vi.useRealTimers();
  });
  afterAll(() => server.close());
  return server;
}

export function makeClient(options: ClientOptions = {}): PaymentsClient {
  return new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: ORIGIN, logLevel: 'off', ...options });
}

/** The current success envelope. */
export function ok(data: unknown, status = 200, headers?: Record<string, string>) {
  return HttpResponse.json({ status, message: 'OK', success: true, data }, { status, headers });
}

/** The older boolean success envelope. */
export function legacyOk(data: unknown, status = 200) {
  return HttpResponse.json({ status: true, message: 'OK', data }, { status });
}

/** The spec's error envelope. */
export function fail(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  return HttpResponse.json({ status, message, ...extra }, { status, headers });
}

export function transaction(n: number, extra: Record<string, unknown> = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    transaction_type: 'withdrawal',
    status: 'completed',
    description: `payout ${n}`,
    external_reference: `ref-${n}`,
    fee_amount: 5000,
    source_amount: 100_000,
    destination_amount: 95_000,
    source_currency: 'NGN',
    destination_currency: 'NGN',
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    ...extra,
  };
}

/** A payout beneficiary for the unit tests (MSW answers every request, so no name enquiry resolves it). */
export const PAYOUT_BENEFICIARY = {
  accountName: 'ADA OKAFOR',
  accountNumber: '0123456789',
  bankName: 'Access Bank',
  bankCode: '000014',
  email: 'ada@example.com',
};

/** POST /payouts' success body (the boolean envelope); `amount`, the total deducted, defaults to destination + fee. */
export function payoutInitiated(
  data: { destination_amount: number; fee_amount: number } & Record<string, unknown>,
) {
  return {
    status: true,
    message: 'Payout initiated successfully',
    data: {
      id: 'p1',
      created_at: '2026-01-01T00:00:00Z',
      amount: data.destination_amount + data.fee_amount,
      beneficiary: {},
      ...data,
    },
  };
}

/**
 * POST /payouts' success body for the payout `body` (the wire form) asks for: its amount in minor units (by the
 * currency's digits, or for USDC/USDT the amount's own decimals), its remark, reference and bank code. The SDK
 * compares an answer with what it sent, so a handler that answers any body answers with this one.
 */
export function payoutAnswerFor(body: Record<string, unknown>, fee = 100) {
  const currency = String(body.currency);
  const amount = Number(body.amount);
  const own = /\.(\d+)$/.exec(String(amount))?.[1]?.length ?? 0;
  const destination = toMinorUnits(currency, amount, currencyDigits(currency) ?? own);
  const beneficiary = (body.beneficiary ?? {}) as Record<string, unknown>;
  return payoutInitiated({
    destination_amount: destination,
    fee_amount: fee,
    remark: body.remark ?? null,
    external_reference: body.externalReference ?? null,
    beneficiary: { bank_code: beneficiary.bankCode },
  });
}

export { settle, settleError, useFakeClock } from './clock.js';

/**
 * GET /transactions as the spec states it, over `rows`: failed rows only under `status=failed` (the other
 * status filters too), inclusive `startDate`/`endDate` (a day or a full timestamp), newest first, paged, with
 * the flat counters and a `Date` header (the SDK compares it with its clock). Rows without `created_at` get
 * `Date.now()`'s.
 */
export function listingAnswer(request: Request, rows: Record<string, unknown>[]) {
  const query = new URL(request.url).searchParams;
  const status = query.get('status');
  const bound = (name: string, end: boolean) => {
    const value = query.get(name);
    if (!value) return end ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    return /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? Date.parse(`${value}T00:00:00.000Z`) + (end ? 86_399_999 : 0)
      : Date.parse(value);
  };
  const [from, to] = [bound('startDate', false), bound('endDate', true)];
  const at = (row: Record<string, unknown>) => Date.parse(String(row.created_at));
  const selected = rows
    .filter((row) => (status ? row.status === status : row.status !== 'failed'))
    .filter((row) => at(row) >= from && at(row) <= to)
    .sort((a, b) => at(b) - at(a));
  const page = Number(query.get('page') ?? 1);
  const pageSize = Number(query.get('pageSize') ?? 20);
  const data = {
    transactions: selected.slice((page - 1) * pageSize, page * pageSize),
    totalCount: selected.length,
    page,
    pageSize,
    totalPages: Math.ceil(selected.length / pageSize),
  };
  return ok(data, 200, { date: new Date().toUTCString() });
}
