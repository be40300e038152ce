import { readFileSync } from 'node:fs';
import { KNOWN_ACCOUNT_NUMBER } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { remarkFor } from '../src/tools/payout.js';
import {
  CANARY_KEY,
  cancelRecorded,
  connect,
  data,
  envFor,
  everything,
  type Session,
  stateFile,
  timePasses,
  useMockServer,
} from './helpers.js';

const mock = useMockServer();
const state = stateFile();
let payouts: Session;
const results: unknown[] = [];

/** The account the mock's name enquiry resolves to ADAEZE KEMI OKAFOR. */
const BENEFICIARY = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: KNOWN_ACCOUNT_NUMBER,
  bankName: 'Guaranty Trust Bank',
  bankCode: '000013',
  email: 'ada@example.com',
};
const ENQUIRY = {
  accountNumber: KNOWN_ACCOUNT_NUMBER,
  bankCode: '000013',
  accountName: 'Adaeze  Kemi Okafor',
};

/** Payouts in the mock's ledger carrying this reference, or the remark send_payout gives an NGN payout. */
function ledger(reference: string): number {
  return mock
    .server()
    .mock.account()
    .transactions.filter(
      ({ row }) => row.external_reference === reference || row.description === remarkFor(reference),
    ).length;
}

async function send(args: Record<string, unknown>) {
  const result = await payouts.call('send_payout', args);
  results.push(result);
  return result;
}

const ngn = (externalReference: string, extra: Record<string, unknown> = {}) => ({
  externalReference,
  amount: '1000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  nameEnquiry: ENQUIRY,
  ...extra,
});

beforeAll(async () => {
  payouts = await connect(
    envFor(mock.server(), {
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000,USD=1000',
      PAYMENTS_MCP_VISIBILITY_WAITS_MS: '0,50',
      PAYMENTS_MCP_BACKOFF_MS: '5,20',
      // The mock lists a payout at once: no test here is about the listing lag (absence.test.ts is).
      PAYMENTS_MCP_LISTING_LAG_MS: '0',
    }),
    ['--allow-payouts'],
  );
});
afterAll(async () => {
  expect(results.some((r) => everything(r).includes(CANARY_KEY))).toBe(false);
  expect(payouts.stderr().includes(CANARY_KEY)).toBe(false);
  await payouts?.close();
});

describe('send_payout', () => {
  it('does not exist unless the operator enabled payouts at start-up', async () => {
    const readOnly = await connect(envFor(mock.server()));
    try {
      const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('send_payout');
      const attempt = await readOnly.call('send_payout', ngn('not-enabled-1')).catch((error: Error) => error);
      expect(everything(attempt instanceof Error ? attempt.message : attempt)).toMatch(
        /send_payout not found/,
      );
      expect(ledger('not-enabled-1')).toBe(0);
      expect(readOnly.stderr().includes(CANARY_KEY)).toBe(false);
    } finally {
      await readOnly.close();
    }
  });

  it("refuses an amount over the operator's cap, and a currency with no cap, as PayoutRefusedError naming the guard; nothing reaches the mock", async () => {
    const handled = vi.spyOn(mock.server().mock, 'handle');
    const over = await send({ ...ngn('cap-1'), currency: 'USD', amount: '1000.01', nameEnquiry: undefined });
    expect(over.isError).toBe(true);
    expect(data(over).error).toMatchObject({
      class: 'PayoutRefusedError',
      guard: 'payout_cap',
      message:
        "1000.01 USD is over this server's per-payout cap of 1000 USD; nothing was sent (the operator sets the caps)",
    });
    // NGN too: refused before the name enquiry, which would ask the bank.
    const overNgn = await send(ngn('cap-6', { amount: '50000.01' }));
    expect(data(overNgn).error).toMatchObject({
      class: 'PayoutRefusedError',
      guard: 'payout_cap',
      message: expect.stringContaining("50000.01 NGN is over this server's per-payout cap of 50000 NGN"),
    });
    const uncapped = await send({ ...ngn('cap-2'), currency: 'XAF', amount: '10' });
    expect(data(uncapped).error).toMatchObject({
      class: 'PayoutRefusedError',
      guard: 'payout_cap',
      message: expect.stringContaining(
        'payouts in XAF have no per-payout cap on this server (caps: NGN 50000, USD 1000), so none can be sent',
      ),
    });
    expect(handled).not.toHaveBeenCalled();
    expect(ledger('cap-1') + ledger('cap-2') + ledger('cap-6')).toBe(0);
    // The cap itself is allowed.
    const atCap = data(
      await send({ ...ngn('cap-3'), currency: 'USD', amount: '1000.00', nameEnquiry: undefined }),
    );
    expect(atCap).toMatchObject({
      status: 'created',
      payout: { destination_amount: { minor: 100_000, major: '1000.00', currency: 'USD' } },
    });
    expect(ledger('cap-3')).toBe(1);
  });

  it('takes the amount in MAJOR units as a decimal string: a number, or a second unit, is refused and nothing is sent', async () => {
    const handled = vi.spyOn(mock.server().mock, 'handle');
    const usd = (extra: Record<string, unknown>) =>
      send({ ...ngn('unit-1'), currency: 'USD', nameEnquiry: undefined, ...extra });
    // Minor units meant (1000 cents), a payout's minor amount fed back, a float: all numbers, all refused.
    for (const amount of [1000, 101_000, 1000.01]) {
      const refused = await usd({ amount });
      expect(refused.isError).toBe(true);
      expect(everything(refused)).toContain('must be a decimal string in MAJOR units');
      expect(everything(refused)).toContain(`not the number ${amount}`);
    }
    const both = await usd({ amount: '10.00', amountMinor: 1000 });
    expect(both.isError).toBe(true);
    expect(everything(both)).toContain('amountMinor');
    const words = await usd({ amount: 'ten' });
    expect(everything(words)).toContain('must be a decimal string in MAJOR units');
    expect(handled).not.toHaveBeenCalled();
    expect(ledger('unit-1')).toBe(0);
  });

  it("states the unit in the input's JSON Schema, and takes no property it does not list", async () => {
    const tool = (await payouts.client.listTools()).tools.find((t) => t.name === 'send_payout')!;
    const amount = (tool.inputSchema.properties as Record<string, Record<string, unknown>>).amount!;
    expect(amount).toMatchObject({ type: 'string', pattern: expect.any(String) });
    expect(amount.description).toContain('MAJOR units as a decimal string');
    expect(amount.description).toContain('never kobo or cents');
    // The format the SDK takes: the currency's minor-unit digits written out; NGN exactly two of them.
    expect(amount.description).toContain("carrying exactly the currency's minor-unit digits");
    expect(amount.description).toContain(
      'NGN and USD take exactly 2 decimals ("2500.00"; "2500" is refused)',
    );
    expect(amount.description).toContain('A number is refused');
    // No other property: `false`, or a schema nothing matches (`{ not: {} }`), as the JSON Schema renderer writes it.
    expect([false, { not: {} }]).toContainEqual(tool.inputSchema.additionalProperties);
  });

  it('refuses NGN without a name enquiry, with one for another account, or with a holder name that does not match', async () => {
    const without = await send(ngn('ngn-check-1', { nameEnquiry: undefined }));
    expect(data(without).error).toMatchObject({
      class: 'RequestValidationError',
      issues: [{ path: ['nameEnquiry'] }],
    });
    const other = await send(
      ngn('ngn-check-2', { nameEnquiry: { ...ENQUIRY, accountNumber: '0123456799' } }),
    );
    expect(data(other).error).toMatchObject({
      class: 'PayoutRefusedError',
      message: expect.stringContaining('different account'),
    });
    const wrongName = await send(
      ngn('ngn-check-3', { beneficiary: { ...BENEFICIARY, accountName: 'EMEKA BELLO' } }),
    );
    expect(data(wrongName).error.message).toContain('does not match');
    // An enquiry made up to agree with the beneficiary: the server asks the bank itself.
    const forged = await send(
      ngn('ngn-check-4', {
        beneficiary: { ...BENEFICIARY, accountName: 'EMEKA BELLO' },
        nameEnquiry: { ...ENQUIRY, accountName: 'EMEKA BELLO' },
      }),
    );
    expect(data(forged).error).toMatchObject({
      class: 'BeneficiaryVerificationError',
      reason: 'name_mismatch',
      message: expect.stringContaining('"EMEKA BELLO" does not match the holder the name enquiry gives'),
    });
    for (const n of [1, 2, 3, 4]) expect(ledger(`ngn-check-${n}`)).toBe(0);
  });

  it('sends an NGN payout once: the same reference again returns the original payout', async () => {
    const first = await send(ngn('ngn-twice-1'));
    expect(first.isError).toBeFalsy();
    expect(data(first)).toMatchObject({
      status: 'created',
      externalReference: 'ngn-twice-1',
      payout: { destination_amount: { minor: 100_000, major: '1000.00', currency: 'NGN' } },
    });
    // The server's record answers the repeat: the same payout, and nothing sent.
    const again = await send(ngn('ngn-twice-1'));
    expect(data(again)).toMatchObject({
      status: 'created',
      repeat: true,
      attempts: 1,
      payout: { id: data(first).payout.id },
    });
    expect(again.content[0]).toMatchObject({ text: expect.stringContaining('nothing new was sent') });
    // The same payout spelled differently (another decimal form, another case of the names) is the same payout.
    const spelled = await send(
      ngn('ngn-twice-1', {
        amount: '1000.00',
        beneficiary: { ...BENEFICIARY, accountName: 'Adaeze Kemi Okafor' },
      }),
    );
    expect(data(spelled)).toMatchObject({
      status: 'created',
      repeat: true,
      payout: { id: data(first).payout.id },
    });
    expect(ledger('ngn-twice-1')).toBe(1);
  });

  it('recovers a payout whose 2xx answer was cut, and a retry after that still leaves one payout', async () => {
    mock.server().mock.faults.bodyFault('cut', 'POST /payouts');
    const cut = data(await send(ngn('ngn-cut-1')));
    expect(cut).toMatchObject({ status: 'recovered', attempts: 1, externalReference: 'ngn-cut-1' });
    expect(ledger('ngn-cut-1')).toBe(1);
    const retry = data(await send(ngn('ngn-cut-1')));
    expect(retry).toMatchObject({
      status: 'recovered',
      attempts: 1,
      transaction: { id: cut.transaction.id },
    });
    expect(ledger('ngn-cut-1')).toBe(1);
  });

  it('answers "not_sent" when every POST was answered 503 and a lookup proved each absent before the next', async () => {
    const seen: string[] = [];
    const faults = mock.server().mock.faults;
    // First: a fault that never fires, only sees each request go by, in order. Then the 503s.
    faults
      .next({
        status: 500,
        times: Number.MAX_SAFE_INTEGER,
        match: (r) => !seen.push(`${r.method} ${r.path}`),
      })
      .next({ status: 503, match: 'POST /payouts', times: 3 });
    try {
      const result = await send(ngn('ngn-503-1'));
      expect(result.isError).toBe(true);
      expect(data(result)).toMatchObject({
        status: 'not_sent',
        externalReference: 'ngn-503-1',
        attempts: 3,
        error: { class: 'InternalServerError', status: 503 },
        note: expect.stringContaining('Nothing moved'),
      });
      // A 503 may come after the service took the payout: each is looked up before anything else is sent.
      const posts = seen.flatMap((r, i) => (r === 'POST /payouts' ? [i] : []));
      expect(posts).toHaveLength(3);
      for (const [n, at] of posts.entries()) {
        const next = posts[n + 1] ?? seen.length;
        expect(seen.slice(at + 1, next)).toContain('GET /transactions');
      }
      expect(ledger('ngn-503-1')).toBe(0);
    } finally {
      faults.clear();
    }
    // The same reference later (once a POST made before could have ended): re-opened, looked up, sent once.
    timePasses(state, 120_000);
    expect(data(await send(ngn('ngn-503-1')))).toMatchObject({ status: 'created' });
    expect(ledger('ngn-503-1')).toBe(1);
  });

  it('answers "cancelled" for a payout an operator cancelled, and never sends it under that reference', async () => {
    const faults = mock.server().mock.faults;
    faults.next({ status: 400, match: 'POST /payouts', times: 1 });
    try {
      expect(data(await send(ngn('ngn-cancel-1')))).toMatchObject({ status: 'refused' });
    } finally {
      faults.clear();
    }
    await cancelRecorded(state, 'ngn-cancel-1');
    // Called again, as a refused payout would be sent again: the operator's cancel stands.
    const result = await send(ngn('ngn-cancel-1'));
    expect(result.isError).toBe(true);
    expect(data(result)).toMatchObject({
      status: 'cancelled',
      externalReference: 'ngn-cancel-1',
      note: expect.stringContaining('will not be sent'),
    });
    expect(ledger('ngn-cancel-1')).toBe(0);
  });

  it('answers "unknown" with what the operator must check when it cannot prove the payout absent, and never sends it again', async () => {
    const faults = mock.server().mock.faults;
    // The service takes the payout, its answer is cut, and the listing cannot be read: nobody can tell.
    faults.bodyFault('cut', 'POST /payouts').next({ status: 400, match: 'GET /transactions', times: 1000 });
    try {
      const result = await send(ngn('ngn-unknown-1'));
      expect(result.isError).toBe(true);
      expect(data(result)).toMatchObject({
        status: 'unknown',
        externalReference: 'ngn-unknown-1',
        error: { class: 'PayoutOutcomeUnknownError' },
        operatorMustCheck: expect.stringContaining('never invent a new reference for a retry'),
      });
      expect(result.content[0]).toMatchObject({
        text: expect.stringMatching(/^PayoutOutcomeUnknownError: /),
      });
      // Called again, even with the listing back: the recorded state, with what to check; nothing sent.
      faults.clear();
      const again = await send(ngn('ngn-unknown-1'));
      expect(data(again)).toMatchObject({ status: 'unknown', operatorMustCheck: expect.any(String) });
    } finally {
      faults.clear();
    }
    expect(ledger('ngn-unknown-1')).toBe(1);
  });

  it('sends a new payout at once with the default waits: its first request is the POST, no lookup or wait before it', async () => {
    const seen: string[] = [];
    const faults = mock.server().mock.faults;
    // A fault that never fires: it only sees each request go by, in order.
    faults.next({
      status: 500,
      times: Number.MAX_SAFE_INTEGER,
      match: (r) => !seen.push(`${r.method} ${r.path}`),
    });
    const defaults = await connect(envFor(mock.server(), { PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000' }), [
      '--allow-payouts',
    ]);
    try {
      const sent = await defaults.call('send_payout', {
        ...ngn('fresh-1'),
        currency: 'USD',
        nameEnquiry: undefined,
      });
      expect(data(sent)).toMatchObject({ status: 'created', attempts: 1 });
      expect(seen).toEqual(['POST /payouts']);
    } finally {
      faults.clear();
      await defaults.close();
    }
  });

  it('and its README tell the truth about amounts and refusals: no number is the same amount as a string', async () => {
    const tool = (await payouts.client.listTools()).tools.find((t) => t.name === 'send_payout')!;
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const text of [tool.description!, readme]) {
      expect(text).not.toMatch(/50, "50" and "50\.00"|`50`, `"50"` and `"50\.00"`/);
    }
    expect(tool.description).toContain('the amount compared as an exact decimal');
    expect(tool.description).toContain(
      'A refusal by a cap or a guard of the operator is a PayoutRefusedError naming it (error.guard)',
    );
    // The README names the class and the guard the code answers with (checked above, through the tool).
    expect(readme).toContain('over the per-payout cap or in a currency without one (`payout_cap`)');
    expect(readme).toMatch(/the amount as an exact decimal \(a number is refused\)/);
  });

  it('describes itself so that a model retries with the same reference', async () => {
    const tool = (await payouts.client.listTools()).tools.find((t) => t.name === 'send_payout')!;
    expect(tool.description).toContain(
      'Retrying with the same reference is safe and returns the original payout; never invent a new reference for a retry',
    );
    // A 429 or 503 is not "nothing moved": the model learns why an answer can stay in_progress, and for how long.
    expect(tool.description).toContain(
      'A timeout, a lost answer, a 408, 429 or 5xx may come after the service took the payout: it is looked up, and sent again only once a lookup 0 s after the send proves it absent',
    );
    expect(tool.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(tool.inputSchema.required).toEqual(
      expect.arrayContaining(['externalReference', 'amount', 'currency', 'beneficiary']),
    );
  });
});
