import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main as paginate } from '../../examples/paginate-transactions.js';
import { main as payerName } from '../../examples/payer-name-with-documents.js';
import { quickstart } from '../../examples/quickstart.js';
import { resumePending, main as safePayout } from '../../examples/safe-payouts.js';
import { main as tenants } from '../../examples/tenant-for-account.js';
import { PaymentsClient } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { STRICT } from '../helpers/msw-strict.js';

// Every example runs here against the mock, so a change that breaks one fails CI.
const mock = createPaymentsMock();
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen(STRICT));
afterEach(() => mock.reset());
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
      'a slip of the unit is refused before it leaves: Invalid request: amount: 250000 NGN is over the payout ceiling of 100000.00 NGN (payoutLimits)',
    );
    // Its life: the NGN payout followed to completed, a wire to its UETR, read from the listing.
    expect(text).toContain('   NGN: processing -> completed (final)');
    expect(text).toContain('   USD wire: processing -> completed (final)');
    expect(text).toMatch(/ {3}USD wire: UETR [0-9a-f-]{36} assigned \(completed\)/);
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

  it('safe-payouts creates one payout, and resuming after a "crash" finds it without sending again', async () => {
    const outcome = await safePayout(client, () => {}, [10]);
    expect(outcome.status).toBe('created');
    const before = mock.account().transactions.length;
    const resumed = await resumePending(client, () => {}, [0]);
    expect(resumed).toMatchObject([{ status: 'recovered', attempts: 0 }]);
    expect(mock.account().transactions).toHaveLength(before);
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
