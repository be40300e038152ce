// The bench's loopback server, run as a child process (fork) so its CPU is not counted against the client.
// GET /api/v1/external/transactions?page=P&pageSize=S[&endDate=E] answers page P of a deterministic list of
// TOTAL rows (those created at or before E) in the current envelope; page 1 of 20 rows (the default) is serialised once and sent as the same bytes each time.
// Tells its parent { port } once listening; exits when the parent goes away.
import { createServer } from 'node:http';

export const TOTAL = 100_000;
const PATH = '/api/v1/external/transactions';
const BASE_MS = Date.parse('2026-11-30T12:00:00.000Z');
/** Time between two rows. */
const STEP_MS = 37 * 60_000;
const PAYERS = [
  { name: 'Adaeze Okafor', bank_name: 'Access Bank', country: 'NG' },
  { name: 'Northwind Trading LLC', bank_name: 'Chase', country: 'US' },
  { name: 'Kofi Mensah', bank_name: 'MTN Mobile Money', country: 'CM' },
];

const hex = (n, width) => n.toString(16).padStart(width, '0');
const uuid = (n, salt) => `${hex(salt, 8)}-0000-4000-8000-${hex(n, 12)}`;
const iso = (ms) => new Date(ms).toISOString();

/** Row `i` of the list, newest first: the spec's Transaction, some with the optional deposit and wire fields. */
export function row(i) {
  const created = BASE_MS - i * STEP_MS;
  const amount = 500_000 + ((i * 7919) % 2_000_000) * 100;
  const base = {
    id: uuid(i, 0x7a3c),
    transaction_type: 'withdrawal',
    status: ['completed', 'sent', 'processing', 'pending', 'completed'][i % 5],
    description: 'Vendor payout',
    external_reference: `inv-${i}`,
    fee_amount: 0,
    source_amount: amount,
    destination_amount: amount,
    source_currency: 'NGN',
    destination_currency: 'NGN',
    created_at: iso(created),
    updated_at: iso(created + 90_000),
  };
  switch (i % 5) {
    case 0: // NGN payout with a fee
      return { ...base, fee_amount: 5_000, source_amount: amount + 5_000 };
    case 1:
    case 2: {
      // Deposits: in USD on a known rail (1), in NGN with the rail unknown (2)
      const usd = i % 5 === 1;
      const payer = PAYERS[i % PAYERS.length];
      return {
        ...base,
        transaction_type: 'deposit',
        status: 'completed',
        description: `Deposit from ${payer.name}`,
        source_currency: usd ? 'USD' : 'NGN',
        destination_currency: usd ? 'USD' : 'NGN',
        ...(usd ? { payment_rail: 'ach' } : {}),
        virtual_account: {
          id: uuid(i % 3, 0x5eed),
          currency: usd ? 'USD' : 'NGN',
          method: usd ? 'ach' : 'bank_transfer',
          bank_name: usd ? 'Lead Bank' : 'Wema Bank',
          account_number: usd ? '204718930012' : '8012345678',
          account_name: 'Bench Ltd',
          ...(usd ? { routing_number: '101019644', swift_code: 'LEADUS44' } : {}),
        },
        payer: { ...payer, account_number: String(1_000_000_000 + i) },
      };
    }
    case 3: {
      // Completed international wire: UETR and tracking codes assigned
      const uetr = uuid(i, 0xe7e7);
      const imad = i % 2 ? { IMAD: `20261130QMGFT${hex(i, 9)}` } : {};
      return {
        ...base,
        status: 'completed',
        description: 'International wire to supplier',
        source_currency: 'USD',
        destination_currency: 'USD',
        fee_amount: 2_500,
        source_amount: amount + 2_500,
        uetr,
        tracking_codes: { UETR: uetr, ...imad },
      };
    }
    default:
      return base;
  }
}

/** The index of the newest row created at or before `endDate` (inclusive, as the spec's filter is). */
function firstAtOrBefore(endDate) {
  return endDate ? Math.max(0, Math.ceil((BASE_MS - Date.parse(endDate)) / STEP_MS)) : 0;
}

/** The response body of one page of the rows up to `endDate`, in the current envelope with the flat counters. */
export function pageBody(page, pageSize, endDate) {
  const first = firstAtOrBefore(endDate);
  const total = TOTAL - first;
  const from = first + (page - 1) * pageSize;
  const transactions = [];
  for (let i = from; i < Math.min(from + pageSize, TOTAL); i++) transactions.push(row(i));
  return JSON.stringify({
    status: 200,
    success: true,
    message: 'Transactions retrieved successfully',
    data: { transactions, totalCount: total, page, pageSize, totalPages: Math.ceil(total / pageSize) },
  });
}

function serve() {
  const fixed = Buffer.from(pageBody(1, 20));
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== PATH) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"status":404,"success":false,"message":"Not found"}');
      return;
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 20);
    const endDate = url.searchParams.get('endDate') ?? undefined;
    const cached = page === 1 && pageSize === 20 && endDate === undefined;
    const body = cached ? fixed : Buffer.from(pageBody(page, pageSize, endDate));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('disconnect', () => process.exit(0));
}

if (process.argv.includes('--serve')) serve();
