import type { DatabaseSync } from 'node:sqlite';
import type { EnqueueResult } from 'payments-service-sdk/outbox';
import type { AllowedAccount, Amounts, GuardSetting, GuardSettings } from './settings.js';

/**
 * The guards' memory, in the same SQLite file as the outbox that records every payout (`PAYMENTS_MCP_STATE`), so
 * that what the guards know survives a restart exactly as what was sent does:
 * - `payments_mcp_guards`: the guards in force (a setting given once stands until `off`);
 * - `payments_mcp_payouts`: every payout this server recorded, with its account, currency, amount and the UTC day
 *   it counts on. It keeps a reference to one account, and it is what a daily cap sums.
 */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS payments_mcp_guards (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS payments_mcp_payouts (
  reference TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  day TEXT NOT NULL,
  counted INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS payments_mcp_payouts_day ON payments_mcp_payouts (day, currency) WHERE counted = 1;
`;

/** The guards in force after start-up, and whether each was set now or kept from the state file. */
export interface GuardsInForce {
  dailyCaps?: Amounts;
  confirmAbove?: Amounts;
  allowlist?: AllowedAccount[];
  /** Guards the state file kept because no setting was given this time. */
  kept: string[];
}

/** A payout as the ledger counts it. */
export interface LedgerEntry {
  account: string;
  reference: string;
  currency: string;
  /** Major units, canonical decimal. */
  amount: string;
}

/** The UTC day a payout recorded now counts on. */
export const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

/** Runs `work` inside one write transaction, synchronously: nothing else on this handle runs in between. */
function transaction<T>(db: DatabaseSync, work: () => T, commit: (value: T) => boolean = () => true): T {
  db.exec('BEGIN IMMEDIATE');
  let value: T;
  try {
    value = work();
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  db.exec(commit(value) ? 'COMMIT' : 'ROLLBACK');
  return value;
}

export class GuardStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    transaction(db, () => db.exec(SCHEMA));
  }

  /** Applies the start-up settings (set replaces, off removes, unset keeps) and returns the guards in force. */
  apply(settings: GuardSettings): GuardsInForce {
    const inForce: GuardsInForce = { kept: [] };
    const amounts = (value: Amounts) => JSON.stringify(Object.fromEntries(value));
    const toMap = (json: string): Amounts =>
      new Map(Object.entries(JSON.parse(json) as Record<string, string>));
    transaction(this.#db, () => {
      const dailyCaps = this.#one('daily_caps', settings.dailyCaps, amounts, toMap, inForce.kept);
      const confirmAbove = this.#one('confirm_above', settings.confirmAbove, amounts, toMap, inForce.kept);
      const allowlist = this.#one('allowlist', settings.allowlist, JSON.stringify, JSON.parse, inForce.kept);
      if (dailyCaps) inForce.dailyCaps = dailyCaps;
      if (confirmAbove) inForce.confirmAbove = confirmAbove;
      if (allowlist) inForce.allowlist = allowlist as AllowedAccount[];
    });
    return inForce;
  }

  #one<T>(
    name: string,
    setting: GuardSetting<T>,
    write: (value: T) => string,
    read: (json: string) => T,
    kept: string[],
  ): T | undefined {
    if (setting.given === 'set') {
      this.#db
        .prepare(
          `INSERT INTO payments_mcp_guards VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        )
        .run(name, write(setting.value), Date.now());
      return setting.value;
    }
    if (setting.given === 'off') {
      this.#db.prepare('DELETE FROM payments_mcp_guards WHERE name = ?').run(name);
      return undefined;
    }
    const row = this.#db.prepare('SELECT value FROM payments_mcp_guards WHERE name = ?').get(name) as
      | { value: string }
      | undefined;
    if (!row) return undefined;
    kept.push(name);
    return read(row.value);
  }

  /** What payouts recorded on `day` in `currency` add up to, in every account (those that moved nothing aside). */
  counted(day: string, currency: string, except?: string): string[] {
    const rows = this.#db
      .prepare(
        `SELECT amount FROM payments_mcp_payouts
         WHERE day = ? AND currency = ? AND counted = 1 AND reference IS NOT ?`,
      )
      .all(day, currency, except ?? null) as { amount: string }[];
    return rows.map((r) => r.amount);
  }

  /** The account a reference was recorded for, if this server recorded it. */
  accountOf(reference: string): string | undefined {
    const row = this.#db
      .prepare('SELECT account FROM payments_mcp_payouts WHERE reference = ?')
      .get(reference) as { account: string } | undefined;
    return row?.account;
  }

  /**
   * Records a new payout in one transaction with the outbox's own row: `admit` checks it (the account that holds
   * the reference, the daily cap) with the transaction's view, the ledger row is added, then `enqueue` runs the
   * outbox's insert on the same handle, synchronously, inside the transaction (its SQL runs when it is called;
   * only its result is awaited). Two processes on one file take turns (`BEGIN IMMEDIATE`), so two calls can
   * never both fit under the same cap. If the outbox did not take the row (it refused the payout), nothing of
   * this is kept.
   */
  record(
    entry: LedgerEntry,
    outboxTable: string,
    admit: (alreadyRecorded: boolean) => void,
    enqueue: (tx: DatabaseSync) => Promise<EnqueueResult>,
  ): Promise<EnqueueResult> {
    const has = this.#db.prepare(`SELECT 1 AS found FROM ${outboxTable} WHERE reference = ?`);
    const inOutbox = () => has.get(entry.reference) !== undefined;
    let recorded = false;
    let kept = false;
    const pending = transaction(
      this.#db,
      () => {
        recorded = inOutbox();
        admit(recorded);
        if (!recorded) this.#insert(entry);
        return enqueue(this.#db);
      },
      () => (kept = recorded || inOutbox()),
    );
    // Should an outbox ever insert after an await (outside the transaction), the payout it recorded still counts.
    return pending.then((result) => {
      if (result.enqueued && !kept) this.#insert(entry);
      return result;
    });
  }

  /**
   * Counts a payout again that ended with nothing moved and is about to be sent again, on today's total, if
   * `admit` lets it (the cap, checked inside the transaction).
   */
  recount<T>(entry: LedgerEntry, admit: () => void, reopen: () => Promise<T>): Promise<T> {
    // The re-open runs in the same transaction (its SQL when called, as `record`'s enqueue): a release that sees
    // the payout still not sent comes before the count, never after it.
    return transaction(this.#db, () => {
      const row = this.#db
        .prepare('SELECT counted FROM payments_mcp_payouts WHERE reference = ?')
        .get(entry.reference) as { counted: number } | undefined;
      if (row?.counted !== 1) {
        admit();
        this.#insert(entry);
      }
      return reopen();
    });
  }

  /**
   * A payout that ended with nothing moved (`not_sent`, `refused`) no longer counts on its day: only while its
   * record still says so, in one statement, so a release late behind another call's re-open uncounts nothing.
   */
  release(reference: string, outboxTable: string): void {
    this.#db
      .prepare(
        `UPDATE payments_mcp_payouts SET counted = 0 WHERE reference = ?
           AND (SELECT state FROM ${outboxTable} WHERE reference = ?) IN ('not_sent', 'refused', 'cancelled')`,
      )
      .run(reference, reference);
  }

  #insert(entry: LedgerEntry): void {
    this.#db
      // Replaces a row whose outbox record an operator deleted as history: the payout is being sent again now.
      .prepare('INSERT OR REPLACE INTO payments_mcp_payouts VALUES (?, ?, ?, ?, ?, 1, ?)')
      .run(entry.reference, entry.account, entry.currency, entry.amount, utcDay(), Date.now());
  }
}
