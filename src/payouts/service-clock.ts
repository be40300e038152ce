import { PagePromise } from '../core/pagination.js';
import type { ListTransactions } from './proof/listing-proof.js';

/**
 * The service's clock against one of ours (this machine's, or the database's that recorded the sends), as the
 * `Date` headers of its answers show it. Tracking and reconciliation read windows by the service's times but
 * know some payouts only by ours: they widen the window by what is measured here, or say they cannot tell. (The
 * absence proof judges the same header its own way, in `proof/listing-page.ts`: there a disagreement beyond the
 * margin makes the walk no proof.)
 */
export class ServiceClock {
  /**
   * Bounds of the service's clock less ours, ms, over every answer with a readable `Date`: the header is whole
   * seconds, read while ours went from the request to the answer. Undefined until one is measured.
   */
  lowMs: number | undefined;
  highMs: number | undefined;
  /** Answers read without a readable `Date` header. */
  undated = 0;

  constructor(readonly now: () => number) {}

  /** The listing, each answer's `Date` measured on the way. */
  measure(list: ListTransactions): ListTransactions {
    return (params, options) =>
      new PagePromise(async () => {
        const sent = this.now();
        const page = await list(params, options);
        this.note(page.response?.headers.get('date') ?? null, sent, this.now());
        return page;
      });
  }

  /** One answer: its `Date` (or none), and ours when the request went and when the answer came. */
  note(date: string | null, sent: number, received: number): void {
    const at = date === null ? Number.NaN : Date.parse(date);
    if (Number.isNaN(at)) {
      this.undated += 1;
      return;
    }
    // The service read its clock at `at` to `at + 999` while ours read `sent` to `received`.
    this.lowMs = Math.min(this.lowMs ?? Number.POSITIVE_INFINITY, at - received);
    this.highMs = Math.max(this.highMs ?? Number.NEGATIVE_INFINITY, at + 1000 - sent);
  }

  /** Whether any answer carried a readable `Date`. */
  get measured(): boolean {
    return this.lowMs !== undefined;
  }

  /** The largest disagreement either way, ms (at least the header's second); undefined: nothing measured. */
  get worstMs(): number | undefined {
    return this.measured ? Math.max(Math.abs(this.lowMs!), Math.abs(this.highMs!)) : undefined;
  }

  /** The service's clock less ours, the middle of what was measured, to the second; undefined: nothing measured. */
  get offsetMs(): number | undefined {
    return this.measured ? Math.round((this.lowMs! + this.highMs!) / 2000) * 1000 : undefined;
  }
}
