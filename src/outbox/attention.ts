import { OPEN_STATES, type OutboxRow } from './types.js';

/**
 * What needs a person, in one place: the states no worker moves on from alone (`unknown`, `not_sent`, `refused`)
 * and an open payout whose worker stopped holding it (a lapsed lease). Each with why, and the verb that applies
 * (docs/payouts-at-scale.md, "The operator's runbook").
 */

/** A lease that ended without its owner's write: that worker was killed, or froze, mid-step. */
export function lapsedLease(row: OutboxRow, now: number): { owner: string; until: number } | undefined {
  const open = (OPEN_STATES as readonly string[]).includes(row.state);
  if (!open || row.owner === null || row.lease_until === null || row.lease_until > now) return undefined;
  return { owner: row.owner, until: row.lease_until };
}

/** Why a person is needed for this row now, and what to do; undefined when the workers carry on alone. */
export function attentionOf(row: OutboxRow, now: number): string | undefined {
  const why = row.reason ?? 'no reason recorded';
  switch (row.state) {
    case 'unknown':
      return `may have moved money (${why}): find it in the listing or the dashboard, then resolve it as exists or absent`;
    case 'not_sent':
      return `nothing moved (${why}): retry it once the cause is fixed, or cancel it`;
    case 'refused':
      return `refused by the service, nothing moved (${why}): fix the cause and retry it, or cancel it`;
  }
  const lapsed = lapsedLease(row, now);
  if (!lapsed) return undefined;
  const midPost =
    row.sends > row.answered ? ', after marking a POST: it is looked up before any other send' : '';
  return `its worker ${lapsed.owner} stopped holding it at ${new Date(lapsed.until).toISOString()}${midPost}: a running worker takes it over; start one if none runs`;
}
