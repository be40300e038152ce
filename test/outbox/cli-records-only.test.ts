/**
 * The client `payments-outbox enqueue` records with (no key needed): it checks payouts as a configured client
 * does, and its payout port refuses every send and lookup, so recording can never move money.
 */
import { describe, expect, it } from 'vitest';
import { serviceClient } from '../../src/outbox/cli-open.js';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

describe("enqueue's records-only client", () => {
  it('records a checked payout, and refuses to send it, naming the send', async () => {
    const client = serviceClient({}, 'enqueue', true);
    const outbox = createPayoutOutbox({ client, store: memoryOutboxStore(), tracking: false });
    await expect(
      outbox.enqueue({ amount: '25', currency: 'USD' as string, beneficiary: BENEFICIARY }),
    ).rejects.toThrow(/amount/);
    const { reference } = await outbox.enqueue({
      amount: '25.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
    });
    await expect(outbox.settle(reference)).rejects.toThrow('payments-outbox does not send payouts here');
    // The claim marked it first (a mark counts a send that may have left), so a worker with a real client looks
    // it up before any POST; nothing was posted or looked up here.
    const record = await outbox.get(reference);
    expect(record).toMatchObject({ state: 'sending', sends: 1 });
    expect(record?.attempts.filter((a) => a.kind === 'post' || a.kind === 'lookup')).toEqual([]);
  });
});
