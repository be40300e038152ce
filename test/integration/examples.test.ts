import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main as paginate } from '../../examples/paginate-transactions.js';
import { main as payerName } from '../../examples/payer-name-with-documents.js';
import { quickstart } from '../../examples/quickstart.js';
import {
  resumePending,
  main as safePayout,
  payouts as savedPayouts,
  savePayout,
} from '../../examples/safe-payouts.js';
import { main as tenants } from '../../examples/tenant-for-account.js';
import { PaymentsClient } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { STRICT } from '../helpers/msw-strict.js';

/** No waits and no listing lag: these tests are not about them. */
const FAST = { visibilityWaits: [0], listingLagMs: 0 };

// Every example runs here against the mock, so a change that breaks one fails CI.
const mock = createPaymentsMock();
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen(STRICT));
afterEach(() => {
  mock.reset();
  savedPayouts.clear();
});
afterAll(() => server.close());
const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, logLevel: 'off' });

function collect() {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
}

describe('examples', () => {
  it('quickstart tours every namespace against the mock, recovering the dropped payout', async () => {
    const { lines, log } = collect();
    await quickstart({ client, mock, allowWrites: true, log, visibilityWaits: [10, 50] });
    const text = lines.join('\n');
    expect(text).toContain('13 banks');
    expect(text).toContain('belongs to ADAEZE KEMI OKAFOR');
    expect(text).toMatch(
      /recovered: demo_[0-9a-f]{32}, NGN 2525\.00 deducted \(NGN 2500\.00 payout \+ NGN 25\.00 fee\), one payout/,
    );
    // NGN: listed under the service's reference, recognised by the remark (`match`).
    expect(text).toMatch(/recognised by its remark; the service listed it as PO-\d{8}-/);
    expect(text).toContain(
      'a slip of the unit is refused before it leaves: Invalid request: amount: 250000.00 NGN is over the payout ceiling of 100000.00 NGN (payoutLimits)',
    );
    // Its life: the NGN payout followed to completed, a wire to its UETR, read from the listing.
    expect(text).toContain('   NGN: processing -> completed (final)');
    expect(text).toContain('   USD wire: processing -> completed (final)');
    expect(text).toMatch(/ {3}USD wire: UETR [0-9a-f-]{36} assigned \(completed\)/);
    // Totals per currency, each in its own unit: kobo, cents and francs are never added together.
    expect(text).toMatch(
      /^ {3}received: (?:(?:NGN|USD) \d+\.\d{2}|XAF \d+)(?:, (?:(?:NGN|USD) \d+\.\d{2}|XAF \d+))+$/m,
    );
    expect(text).toContain("approved by the mock's reviewer and made default: active, isDefault true");
    expect(lines.at(-1)).toBe('Done.');
    const main = mock.account(mock.state.mainAccountId);
    expect(main.transactions.filter((t) => t.row.description.startsWith('Demo invoice demo_'))).toHaveLength(
      1,
    );
  });

  it('quickstart without writes sends no POST that changes state', async () => {
    const { lines, log } = collect();
    const before = JSON.stringify(mock.account(mock.state.mainAccountId).transactions.length);
    await quickstart({ client, allowWrites: false, log });
    expect(lines.join('\n')).toContain('skipped: pass --live');
    expect(JSON.stringify(mock.account(mock.state.mainAccountId).transactions.length)).toBe(before);
  });

  it('paginate-transactions totals completed transactions', async () => {
    const { count, totals } = await paginate(client, () => {});
    expect(count).toBeGreaterThan(0);
    expect([...totals.keys()].length).toBeGreaterThan(0);
  });

  it('tenant-for-account reads each account through forAccount', async () => {
    const summary = await tenants(client, () => {});
    expect(summary.map((s) => s.id)).toEqual(
      expect.arrayContaining([mock.state.individualAccountId, mock.state.businessAccountId]),
    );
    expect(summary.every((s) => s.transactions > 0)).toBe(true);
  });

  it('safe-payouts creates one payout and marks its row paid; a restart sends nothing again', async () => {
    const before = mock.account().payouts.size;
    const outcome = await safePayout(client, () => {}, FAST);
    expect(outcome).toMatchObject({ status: 'created', attempts: 1 });
    expect(savedPayouts.get('invoice-1001')?.paid).toMatchObject({ listedAs: expect.stringMatching(/^PO-/) });
    expect(await resumePending(client, () => {}, FAST)).toEqual([]);
    expect(mock.account().payouts.size).toBe(before + 1);
  });

  it('safe-payouts keeps a payout proven not sent, and a later run sends it once', async () => {
    // Refused before anything was stored, with a Retry-After too long to wait: proven absent, not_sent.
    mock.faults.next({ status: 429, retryAfter: 3600, match: 'POST /payouts' });
    const lines: string[] = [];
    const first = await safePayout(client, (line) => lines.push(line), FAST);
    expect(first).toMatchObject({ status: 'not_sent', retryAfterMs: 3_600_000 });
    expect(lines.join('\n')).toContain('invoice-1001: not sent');
    const row = savedPayouts.get('invoice-1001');
    expect(row && !row.paid && row.leaseUntil === 0).toBe(true);
    const before = mock.account().payouts.size;
    expect(await resumePending(client, () => {}, FAST)).toMatchObject([{ status: 'created' }]);
    expect(mock.account().payouts.size).toBe(before + 1);
    expect(savedPayouts.get('invoice-1001')?.paid).toBeDefined();
  });

  it('safe-payouts resumes a payout whose sender crashed after the POST: found, not sent again', async () => {
    const body = {
      amount: '1500.00',
      currency: 'NGN',
      beneficiary: { ...BENEFICIARY },
      remark: 'Payout crashed-1',
      externalReference: 'crashed-1',
    };
    savePayout('invoice-7', body);
    await client.payouts.create(body); // the crashed process's POST: the service made the payout
    const before = mock.account().payouts.size;
    expect(await resumePending(client, () => {}, FAST)).toMatchObject([{ status: 'recovered', attempts: 0 }]);
    expect(mock.account().payouts.size).toBe(before);
  });

  it('safe-payouts leaves a row another worker holds a lease on', async () => {
    savePayout('invoice-8', {
      amount: '10.00',
      currency: 'USD',
      beneficiary: { ...BENEFICIARY },
      remark: 'Payout leased-1',
      externalReference: 'leased-1',
    });
    savedPayouts.get('invoice-8')!.leaseUntil = Date.now() + 60_000;
    const before = mock.account().payouts.size;
    expect(await resumePending(client, () => {}, FAST)).toEqual([]);
    expect(mock.account().payouts.size).toBe(before);
  });

  it('payer-name-with-documents streams the document and sets metadata afterwards', async () => {
    const updated = await payerName(client, () => {});
    expect(updated.metadata).toEqual({ crmId: 'c-42' });
    expect(updated.documents).toHaveLength(1);
    expect(updated.documents[0]).toMatchObject({
      fileName: 'certificate.pdf',
      description: 'Certificate of incorporation',
    });
  });
});
