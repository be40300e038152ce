import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  createExternalReference,
  InternalServerError,
  type PayoutCreateParams,
  PayoutMayHaveMovedError,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import {
  BASE,
  fail,
  makeClient,
  PAYOUT_BENEFICIARY,
  payoutInitiated,
  settleError,
  useFakeClock,
  useServer,
} from '../helpers/server.js';

const server = useServer();

const payoutBody: PayoutCreateParams = {
  amount: '5000.50',
  currency: 'NGN',
  beneficiary: PAYOUT_BENEFICIARY,
  remark: 'Invoice 42',
  externalReference: 'inv-42',
};

const payoutData = {
  id: '7b1f3c2a-0d4e-4f6a-8b9c-1d2e3f4a5b6c',
  remark: 'Invoice 42',
  external_reference: 'inv-42',
  fee_amount: 5000,
  created_at: '2026-11-22T10:00:00Z',
  destination_amount: 500050,
  amount: 505050,
  beneficiary: { bank_code: '000014', bank_name: 'Access Bank', account_name: 'ADA OKAFOR' },
};

describe('payouts.create', () => {
  it('sends major units and reads the boolean envelope with minor-unit amounts', async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE}/payouts`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(payoutInitiated(payoutData));
      }),
    );
    const payout = await makeClient().payouts.create(payoutBody);
    expect(body).toEqual({ ...payoutBody, amount: 5000.5 });
    expect(payout).toEqual(payoutData);
  });

  it.each([
    [{ amount: '0.00' }, 'amount', 'greater than 0'],
    [{ amount: '-5' }, 'amount', 'greater than 0'],
    [{ amount: '5000.505' }, 'amount', '2 decimal places'],
    [{ amount: 'five' }, 'amount', 'not a decimal number'],
    [{ amount: '90071992547409.91' }, 'amount', 'more digits than a JSON number carries'],
    [{ beneficiary: { ...payoutBody.beneficiary, bankCode: 7 } }, 'beneficiary.bankCode', 'must be a string'],
    [
      { beneficiary: { ...payoutBody.beneficiary, accountName: undefined } },
      'beneficiary.accountName',
      'is required',
    ],
    [{ payerNameId: 'x' }, 'payerNameId', 'must be a uuid'],
    [{ payer_name_id: 'x' }, 'payer_name_id', 'is not a known field'],
  ])('refuses %o before sending, naming %s', async (change, field, message) => {
    const error = await makeClient()
      .payouts.create({ ...payoutBody, ...change } as any)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as RequestValidationError).message).toContain(message);
  });

  it('is never retried by the transport', async () => {
    useFakeClock();
    let calls = 0;
    server.use(
      http.post(`${BASE}/payouts`, () => {
        calls++;
        return fail(503, 'busy');
      }),
    );
    const error = await settleError(makeClient({ maxRetries: 5 }).payouts.create(payoutBody));
    // A 503 may come after the service committed: a doubt, the answer its cause.
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as PayoutMayHaveMovedError).cause).toBeInstanceOf(InternalServerError);
    expect(calls).toBe(1);
  });

  it('surfaces the documented refusals as typed errors', async () => {
    server.use(
      http.post(`${BASE}/payouts`, () =>
        fail(403, 'This endpoint requires IP whitelisting. Add at least one whitelisted IP.'),
      ),
    );
    await expect(makeClient().payouts.create(payoutBody)).rejects.toBeInstanceOf(PermissionDeniedError);
    server.use(
      http.post(`${BASE}/payouts`, () =>
        HttpResponse.json({ status: false, message: 'Insufficient balance' }, { status: 400 }),
      ),
    );
    await expect(makeClient().payouts.create(payoutBody)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('createExternalReference makes fresh references', () => {
    const a = createExternalReference();
    expect(a).toMatch(/^payout_[0-9a-f]{32}$/);
    expect(createExternalReference('inv')).not.toBe(createExternalReference('inv'));
  });
});
