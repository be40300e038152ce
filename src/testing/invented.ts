/**
 * Behaviour the spec does not state, which a test may ask the mock to invent. Every switch is off by default,
 * where the mock assumes nothing; turn one on only to test code against that assumption.
 */
export interface InventedBehaviour {
  /** Answer GET /payer-names/{id} (the spec shows no such operation). Default false: 404 `Not found`. */
  getPayerName?: boolean;
  /**
   * GET /payer-names without `archived` leaves archived names out. Default false: the filter filters only
   * when sent (`archived=false` hides them, `archived=true` shows only them).
   */
  hideArchivedPayerNames?: boolean;
  /**
   * The body of a beneficiary's `deprecation_warning`, from the classification fields omitted. Default: an
   * empty object (the spec shows none of its fields).
   */
  deprecationWarning?: (missing: string[]) => Record<string, unknown>;
  /** 400 when `startDate` is after `endDate`. Default false: such a range matches no rows. */
  rejectReversedDateRange?: boolean;
  /**
   * Largest `pageSize` of the listings whose ceiling the spec does not give (all but GET /transactions, which
   * is 100). Default: none.
   */
  pageSizeLimit?: number;
  /**
   * What the service makes of a payout's `remark` when it stores it (the spec does not say whether it is
   * trimmed): the payout's answer and its listing `description` show the result, e.g. `(r) => r.trim()` lists
   * `' Invoice 78 '` as `'Invoice 78'`. Default: stored exactly as sent.
   */
  normaliseRemark?: (remark: string) => string;
  /**
   * Rows with the same `created_at` come out in another order on each listing request, ascending and
   * descending id in turn (ascending first after `reset()`), as the spec's "newest first" allows: an offset
   * walk can then read one row twice and skip another across a page boundary. Default false: such rows keep one
   * order (the newer payout first).
   */
  unstableTieOrder?: boolean;
  /**
   * Which timestamp the listings' `startDate` and `endDate` bound (the spec: "inclusive; YYYY-MM-DD or full ISO
   * 8601 timestamp", not of which field). `'updated_at'`: a payout that changed status after the window falls
   * outside it, and one sent before it falls inside once it changes. The order stays newest `created_at` first.
   * Default `'created_at'`.
   */
  dateRangeField?: 'created_at' | 'updated_at';
  /**
   * The listings show a `description` as its first this many characters (code points), as a service with a
   * shorter column than the remark would (the spec gives no length). The payout's answer keeps the remark as
   * stored. Default: listed whole.
   */
  listedRemarkLength?: number;
  /**
   * The fee is taken out of the amount asked instead of added to it (the spec: "`amount` ... total deducted =
   * destination amount + fee", not that the destination amount is the amount asked): a payout of 1,000.00 USD
   * is answered and listed with `destination_amount` 99,000 and `amount` (`source_amount`) 100,000, and
   * 1,000.00 leaves the wallet. Default false: the fee comes on top.
   */
  netOfFee?: boolean;
  /**
   * Minor digits the listings count a currency's amounts in, by code, where the service's ledger uses another
   * unit than the currency's own (the spec names only kobo and cents): `{ XAF: 2 }` lists an XAF payout of
   * 5,000 with `destination_amount` 500,000 (centimes), its fee and `source_amount` alike. Fewer digits than the
   * currency's round to the nearest unit. The payout's answer and the wallets keep the currency's own unit.
   * Default: every currency in its own unit.
   */
  listedMinorDigits?: Record<string, number>;
}
