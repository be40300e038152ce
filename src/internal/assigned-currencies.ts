/**
 * The currencies whose payouts the service lists under a reference it assigns, not the caller's: NGN (the spec's
 * idempotency note), the client's `serviceAssignedCurrencies`, and each currency a POST's answer showed to be one
 * (`learn`). What is learned lives in one set shared by a client and the clients `forAccount` and `withOptions`
 * make from it: a payout sent through one of them teaches them all.
 */
export class AssignedCurrencies {
  readonly #given: ReadonlySet<string>;
  /** The currencies learned from answers; handed to the clients made from this one. */
  readonly learned: Set<string>;

  constructor(given: readonly string[], learned: Set<string> = new Set()) {
    this.#given = new Set(['NGN', ...given.map(code)]);
    this.learned = learned;
  }

  /** Whether `currency` (any case, trimmed) is one. */
  has(currency: string): boolean {
    const c = code(currency);
    return this.#given.has(c) || this.learned.has(c);
  }

  /** Counts `currency` as one from now on; true when it was not one before (the first answer that showed it). */
  learn(currency: string): boolean {
    if (this.has(currency)) return false;
    this.learned.add(code(currency));
    return true;
  }
}

const code = (currency: string) => currency.trim().toUpperCase();
