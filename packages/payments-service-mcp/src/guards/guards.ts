import type { DatabaseSync } from 'node:sqlite';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { EnqueueResult } from 'payments-service-sdk/outbox';
import type { CallExtra } from '../context.js';
import { PayoutRefusedError, sameName } from '../format.js';
import { confirmWithPerson, plain } from './confirm.js';
import { above, remaining, sum } from './decimal.js';
import type { AllowedAccount, Amounts, GuardSettings } from './settings.js';
import { GuardStore, type GuardsInForce, utcDay } from './store.js';

/**
 * The operator's guards on `send_payout`, beside the per-payout caps: a daily cap per currency, an allowlist of
 * accounts, and a person's confirmation above a threshold. Each is checked before anything is sent; the daily
 * cap again inside the transaction that records the payout, so that parallel calls and other processes on the
 * same file can never both fit under it.
 */

/**
 * One payout as the guards see it (amount in major units, canonical; account as `accountKey` names it; every value
 * trimmed, as it is sent).
 */
export interface PayoutFacts {
  account: string;
  reference: string;
  currency: string;
  amount: string;
  beneficiary: { accountName: string; accountNumber: string; bankName: string; bankCode: string };
}

const list = (amounts: Amounts) => [...amounts].map(([c, a]) => `${c} ${a}`).join(', ');
const accountText = (a: { bankCode: string; accountNumber: string }) => `${a.bankCode}/${a.accountNumber}`;

/**
 * The operator's per-payout cap of the payout's currency (`PAYMENTS_MCP_PAYOUT_CAPS`), compared exactly: a guard
 * like the others, refused as one (the SDK's `payoutLimits`, set to the same caps, stay the client's own backstop
 * on every path).
 */
export function withinPayoutCap(caps: Amounts, payout: PayoutFacts): void {
  const cap = caps.get(payout.currency);
  if (cap === undefined) {
    throw new PayoutRefusedError(
      `payouts in ${payout.currency} have no per-payout cap on this server (caps: ${list(caps)}), so none can be sent; nothing was sent`,
      'payout_cap',
    );
  }
  if (above(payout.amount, cap)) {
    throw new PayoutRefusedError(
      `${payout.amount} ${payout.currency} is over this server's per-payout cap of ${cap} ${payout.currency}; nothing was sent (the operator sets the caps)`,
      'payout_cap',
    );
  }
}

export class Guards {
  readonly #store: GuardStore;
  readonly inForce: GuardsInForce;
  readonly #timeoutMs: number;

  constructor(db: DatabaseSync, settings: GuardSettings) {
    this.#store = new GuardStore(db);
    this.inForce = this.#store.apply(settings);
    this.#timeoutMs = settings.confirmTimeoutMs;
  }

  /** The guards in force, one phrase each (for the start-up line and the tool's description). */
  describe(): string[] {
    const { dailyCaps, confirmAbove, allowlist, kept } = this.inForce;
    const from = (name: string) => (kept.includes(name) ? ' (kept in the state file)' : '');
    return [
      dailyCaps && `daily caps per UTC day, all accounts together: ${list(dailyCaps)}${from('daily_caps')}`,
      confirmAbove &&
        `a person confirms each payout above ${list(confirmAbove)} through the host${from('confirm_above')}`,
      allowlist && `only ${allowlist.length} allowlisted account(s) can be paid${from('allowlist')}`,
    ].filter((phrase): phrase is string => Boolean(phrase));
  }

  /** The allowlist: the account must be on it, under the holder's name the entry gives. */
  allowed(to: PayoutFacts['beneficiary']): AllowedAccount | undefined {
    const { allowlist } = this.inForce;
    if (!allowlist) return undefined;
    // Compared exactly: the call's values were trimmed once, on arrival, and are sent as compared here.
    const entry = allowlist.find((a) => a.bankCode === to.bankCode && a.accountNumber === to.accountNumber);
    if (!entry) {
      throw new PayoutRefusedError(
        `account ${accountText(to)} is not on this server's allowlist of beneficiaries; nothing was sent (the operator adds accounts)`,
        'allowlist',
      );
    }
    if (!sameName(entry.accountName, to.accountName)) {
      throw new PayoutRefusedError(
        `account ${accountText(to)} is on the allowlist as held by "${entry.accountName}", not "${plain(to.accountName)}"; nothing was sent`,
        'allowlist',
      );
    }
    return entry;
  }

  /** The daily cap of the payout's currency: refuses a payout that would pass it today (UTC). */
  withinDailyCap(payout: PayoutFacts): void {
    const { dailyCaps } = this.inForce;
    if (!dailyCaps) return;
    const cap = dailyCaps.get(payout.currency);
    if (cap === undefined) {
      throw new PayoutRefusedError(
        `payouts in ${payout.currency} have no daily cap on this server (daily caps: ${list(dailyCaps)}), so none can be sent; nothing was sent`,
        'daily_cap',
      );
    }
    const day = utcDay();
    const today = sum(this.#store.counted(day, payout.currency, payout.reference));
    if (above(sum([today, payout.amount]), cap)) {
      throw new PayoutRefusedError(
        `${payout.amount} ${payout.currency} would pass this server's daily cap of ${cap} ${payout.currency} ` +
          `(UTC ${day}: ${today} recorded, ${remaining(cap, today)} left); nothing was sent`,
        'daily_cap',
      );
    }
  }

  /** A person's yes, when the payout is above its currency's confirmation threshold. */
  async confirm(server: Server, extra: CallExtra, payout: PayoutFacts): Promise<void> {
    const threshold = this.inForce.confirmAbove?.get(payout.currency);
    if (threshold === undefined || !above(payout.amount, threshold)) return;
    const to = payout.beneficiary;
    await confirmWithPerson(server, extra, {
      payout:
        `${payout.amount} ${payout.currency} to ${plain(to.accountName)}, account ${plain(to.accountNumber, 40)} ` +
        `at ${plain(to.bankName)} (bank code ${plain(to.bankCode, 20)}), reference ${plain(payout.reference)}` +
        (payout.account.startsWith('key:') ? '' : `, from account ${payout.account}`),
      threshold: `${threshold} ${payout.currency}`,
      timeoutMs: this.#timeoutMs,
    });
  }

  /**
   * Records a new payout (the outbox's row and the ledger's, in one transaction), if the reference is not held
   * by another account and the daily cap has room; `enqueue` gets the transaction's handle.
   */
  record(
    payout: PayoutFacts,
    outboxTable: string,
    enqueue: (tx: DatabaseSync) => Promise<EnqueueResult>,
  ): Promise<EnqueueResult> {
    return this.#store.record(
      payout,
      outboxTable,
      (recorded) => {
        this.#oneAccount(payout);
        if (!recorded) this.withinDailyCap(payout);
      },
      enqueue,
    );
  }

  /** A payout that moved nothing and is sent again: counted again today, if the daily cap has room. */
  recount<T>(payout: PayoutFacts, reopen: () => Promise<T>): Promise<T> {
    return this.#store.recount(payout, () => this.withinDailyCap(payout), reopen);
  }

  /** A payout that ended with nothing moved no longer counts against its day's cap. */
  release(reference: string, outboxTable: string): void {
    this.#store.release(reference, outboxTable);
  }

  /**
   * A reference names one payout across every account this server acts for. Without it, a call with the key's
   * own account named explicitly (which the server cannot tell from another account when PAYMENTS_ACCOUNT_ID is
   * not set) would be recorded apart, and an NGN payout sent twice.
   */
  #oneAccount(payout: PayoutFacts): void {
    const holder = this.#store.accountOf(payout.reference);
    if (holder === undefined || holder === payout.account) return;
    const named = (account: string) =>
      account.startsWith('key:') ? "the key's own account (no accountId)" : `account ${account}`;
    throw new PayoutRefusedError(
      `payout ${payout.reference} was recorded for ${named(holder)}, not ${named(payout.account)}: a reference names one payout across every account this server acts for (it differs in accountId); nothing was sent`,
      'reference',
    );
  }
}
