/**
 * The scenarios of the seeded payout trials (no-double-payouts.test.ts): which faults each POST and each lookup
 * meet, in which currency, against which service behaviour. Kept apart from the runner so each reads alone.
 */
import * as fc from 'fast-check';
import type { PaymentsMock } from '../../src/testing/index.js';
import { newerWithdrawals } from './listings.js';

export const MAX_ATTEMPTS = 3;
export const WAITS = [2, 5, 10];
const TOTAL_WAIT = WAITS.reduce((a, b) => a + b, 0);

/** What happens to one POST /payouts. */
export type PostFault =
  | 'none'
  | '5xx'
  | '429'
  | 'refused'
  | 'drop-after-commit'
  | 'hang'
  | 'hang-after-commit'
  | 'cut-2xx'
  | 'stall-2xx'
  | 'oversized-2xx';

export interface Scenario {
  /** Fault of the 1st, 2nd, 3rd POST (missing: answered normally). */
  posts: PostFault[];
  currency: 'NGN' | 'USD' | 'USDC';
  status5xx: 500 | 502 | 503 | 504;
  retryAfter: number;
  dedupe: boolean;
  /** NGN: the service lists the payout under a reference of its own (the spec's idempotency note). */
  serviceReference: boolean;
  /** The merchant passes `match` (recognising an NGN payout by its remark). */
  match: boolean;
  /** Listing lag, always within the visibility waits here. */
  lagMs: number;
  /** 429s with Retry-After on the lookup's listing requests (within the transport's retries). */
  lookup429: number;
  /** 503s on the listing: enough of them make a whole lookup fail. */
  listingDown: number;
  /** Listing pages after the first that come back empty or as page 1 again, before the declared end. */
  pageFaults: Array<'empty' | 'repeat'>;
  /** The first process dies right after its POST left; a second one resumes with `lookupFirst`. */
  crash: boolean;
  /**
   * Once the payout is stored, 99 newer rows and one sharing its timestamp (sorting before it among equals), and
   * an unstable tie order: an offset walk's page boundary falls between the two.
   */
  ties: boolean;
  /** Between two reads of the default listing, its newest row fails (leaves it) and an older row shows up late. */
  shift: boolean;
  /** The service's clock against the client's: 0, or two days either way. */
  skewMs: number;
}

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  posts: fc.oneof(
    { weight: 1, arbitrary: fc.constant<PostFault[]>([]) },
    {
      weight: 12,
      arbitrary: fc.array(
        fc.constantFrom<PostFault>(
          '5xx',
          'drop-after-commit',
          'hang',
          'hang-after-commit',
          '429',
          'cut-2xx',
          'stall-2xx',
          'oversized-2xx',
          'refused',
          'none',
        ),
        { minLength: 1, maxLength: MAX_ATTEMPTS },
      ),
    },
  ),
  currency: fc.constantFrom('NGN' as const, 'USD' as const, 'USDC' as const),
  status5xx: fc.constantFrom(500 as const, 502 as const, 503 as const, 504 as const),
  retryAfter: fc.constantFrom(0, 1, 2),
  dedupe: fc.boolean(),
  serviceReference: fc.boolean(),
  match: fc.boolean(),
  lagMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: TOTAL_WAIT })),
  lookup429: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) },
  ),
  listingDown: fc.oneof(
    { weight: 9, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
  ),
  pageFaults: fc.oneof(
    { weight: 6, arbitrary: fc.constant<Array<'empty' | 'repeat'>>([]) },
    {
      weight: 1,
      arbitrary: fc.array(fc.constantFrom('empty' as const, 'repeat' as const), { maxLength: 4 }),
    },
  ),
  crash: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  ties: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  shift: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  skewMs: fc.oneof(
    { weight: 10, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.constantFrom(172_800_000, -172_800_000) },
  ),
});

export const KIND_LABELS = {
  clean: 'no fault',
  '5xx': '5xx before commit',
  'drop-after-commit': 'commit, then connection drop',
  hang: 'timeout before commit (hang)',
  'hang-after-commit': 'timeout after commit (hang)',
  '429': '429 + Retry-After on POST',
  refused: '400 refusal of a POST',
  'cut-2xx': '2xx with its body cut',
  'stall-2xx': '2xx whose body stalls',
  'oversized-2xx': '2xx over maxResponseBytes',
  lookup429: '429 + Retry-After on lookup',
  lag: 'listing lag within waits',
  listingDown: 'listing 503s (lookup may fail)',
  pageFaults: 'listing page empty/repeated before its end',
  crash: 'crash after the POST, resume with lookupFirst',
  ties: 'rows sharing a timestamp across a page boundary',
  shift: 'a row leaves and another arrives between reads',
  skew: "client clock two days off the service's",
  NGN: 'NGN',
  USD: 'USD',
  USDC: 'USDC',
  serviceReference: 'NGN reference assigned by the service',
  dedupe: 'server dedupes by reference',
  noDedupe: 'server does NOT dedupe',
} as const;
export type Kind = keyof typeof KIND_LABELS;

export function kindsOf(s: Scenario): Kind[] {
  const kinds = new Set<Kind>();
  const effective = s.posts.filter((p) => p !== 'none');
  if (effective.length === 0 && !s.crash) kinds.add('clean');
  for (const p of effective) kinds.add(p);
  if (s.lookup429) kinds.add('lookup429');
  if (s.lagMs) kinds.add('lag');
  if (s.listingDown) kinds.add('listingDown');
  if (s.pageFaults.length) kinds.add('pageFaults');
  if (s.crash) kinds.add('crash');
  if (s.ties) kinds.add('ties');
  if (s.shift) kinds.add('shift');
  if (s.skewMs) kinds.add('skew');
  kinds.add(s.currency);
  if (s.currency === 'NGN' && s.serviceReference) kinds.add('serviceReference');
  kinds.add(s.dedupe ? 'dedupe' : 'noDedupe');
  return [...kinds];
}

/** Arms the fault of POST number `attempt` just before it is sent (faults of one kind queue FIFO). */
export function armPost(mock: PaymentsMock, s: Scenario, attempt: number): void {
  const fault = s.posts[attempt - 1] ?? 'none';
  const match = 'POST /payouts';
  if (fault === '5xx') mock.faults.next({ status: s.status5xx, match });
  else if (fault === '429') mock.faults.next({ status: 429, retryAfter: s.retryAfter, match });
  else if (fault === 'refused') mock.faults.next({ status: 400, match });
  else if (fault === 'drop-after-commit') mock.faults.dropAfterCommit(match);
  else if (fault === 'hang') mock.faults.hang(match);
  else if (fault === 'hang-after-commit') mock.faults.hangAfterCommit(match);
  else if (fault === 'cut-2xx') mock.faults.bodyFault('cut', match);
  else if (fault === 'stall-2xx') mock.faults.bodyFault('stall', match);
  else if (fault === 'oversized-2xx') mock.faults.bodyFault('oversized', match);
}

/** Arms the listing faults of a scenario before a trial. */
export function armListing(mock: PaymentsMock, s: Scenario): void {
  mock.settings.dedupeByReference = s.dedupe;
  mock.settings.assignNgnReferences = s.serviceReference;
  mock.settings.invented.unstableTieOrder = s.ties;
  mock.settings.clockOffsetMs = s.skewMs;
  mock.faults.listingLag(s.lagMs);
  const match = 'GET /transactions';
  if (s.lookup429) mock.faults.next({ status: 429, retryAfter: s.retryAfter, times: s.lookup429, match });
  if (s.listingDown) mock.faults.next({ status: 503, times: s.listingDown, match });
  for (const kind of s.pageFaults) mock.faults.pageFault(kind, match);
  // Page faults strike only after page 1: 150 newer rows of other payouts push this one to page 2.
  if (s.pageFaults.length) newerWithdrawals(mock, 150);
}

/**
 * The listing faults that need the payout stored first: `ties` (the payout becomes row 101, its tie partner row
 * 100, so an offset walk's boundary falls between them) and `shift` (armed for the next default-listing read).
 */
export function afterStored(
  mock: PaymentsMock,
  s: Scenario,
  description: string,
  shift: { armed: boolean },
): void {
  const row = mock.account().transactions.find((t) => t.row.description === description)?.row;
  if (s.ties && row) {
    mock.transactions.add({ id: '00000000-0000-4000-8000-000000000000', created_at: row.created_at });
    const at = Date.parse(row.created_at);
    for (let i = 1; i <= 99; i++)
      mock.transactions.add({ created_at: new Date(at + i * 1000).toISOString() });
  }
  shift.armed = s.shift;
}

/** `shift`: after a read of the default listing, its newest row fails and an older row appears late. */
export function shiftNow(mock: PaymentsMock, request: Request, shift: { armed: boolean }): void {
  if (!shift.armed || request.method !== 'GET' || new URL(request.url).searchParams.has('status')) return;
  shift.armed = false;
  const newest = mock.account().transactions.find((t) => t.row.status !== 'failed');
  if (newest) mock.transactions.setStatus(newest.row.id, 'failed');
  mock.transactions.add({ created_at: new Date(mock.now() - 30_000).toISOString() });
}
