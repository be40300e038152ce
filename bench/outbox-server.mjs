// The loopback mock the outbox bench sends to, in a process of its own (its ledger's memory and CPU are not the
// client's): every wallet funded, a repeat reference not deduplicated. Sends its base URL over IPC.
import { createPaymentsMock, startMockServer } from '../dist/testing.js';

const mock = createPaymentsMock({ dedupeByReference: false });
for (const wallet of mock.account().wallets) {
  wallet.balance = 10 ** 15;
  wallet.available_balance = 10 ** 15;
}
const server = await startMockServer({ mock });
process.send({ baseUrl: server.baseUrl });
process.on('disconnect', () => server.close().then(() => process.exit(0)));
