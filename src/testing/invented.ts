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
}
