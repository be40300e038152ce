import { viewPayerName } from './payer-name-store.js';
import type { MockKycLink, MockPayerName, MockState, PayerNameStatus, ReviewDecision } from './types.js';

/** What the controls read from the mock: its state (replaced at each `reset()`) and its service clock. */
export interface MockCore {
  readonly state: MockState;
  now(): number;
}

function payerName(mock: MockCore, id: string): MockPayerName {
  for (const account of mock.state.accounts.values()) {
    const pn = account.payerNames.get(id.toLowerCase());
    if (pn) return pn;
  }
  throw new Error(`no payer name ${id} in the mock`);
}

/** `mock.payerNames`: the decisions a real reviewer would take. */
export function payerNameControls(mock: MockCore) {
  return {
    /**
     * Decides on a `pending_review` name: approve -> `active` (the mock skips `processing`; use `setStatus` for
     * it or `action_required`), request_changes / reject set `decisionNote`.
     */
    review: (id: string, decision: ReviewDecision, note?: string) => {
      const pn = payerName(mock, id);
      if (pn.status !== 'pending_review') {
        throw new Error(`payer name ${pn.id} is ${pn.status}; only pending_review names can be reviewed`);
      }
      pn.status =
        decision === 'approve' ? 'active' : decision === 'reject' ? 'rejected' : 'changes_requested';
      pn.decisionNote = decision === 'approve' ? null : (note ?? null);
      pn.updatedAt = new Date(mock.now()).toISOString();
      return viewPayerName(pn, mock.now());
    },
    /** Forces any status (e.g. `processing` or `action_required`), bypassing review. */
    setStatus: (id: string, status: PayerNameStatus) => {
      const pn = payerName(mock, id);
      Object.assign(pn, { status, updatedAt: new Date(mock.now()).toISOString() });
      if (status === 'archived') pn.isDefault = false;
      return viewPayerName(pn, mock.now());
    },
  };
}

/** `mock.kyc`: the account holder's side of a KYC link. */
export function kycControls(mock: MockCore & { account(id: string): { kycLinks: MockKycLink[] } }) {
  // Expiry is judged on the service's clock, which wrote `expiresAt`.
  const live = (l: MockKycLink) => l.status === 'active' && Date.parse(l.expiresAt) > mock.now();
  const finish = (accountId: string, status: 'completed' | 'rejected'): MockKycLink => {
    const link = mock.account(accountId).kycLinks.find(live);
    if (!link) throw new Error(`account ${accountId} has no active, unexpired KYC link`);
    link.status = status;
    return { ...link };
  };
  return {
    /** Links of an account, oldest first, with `expired` shown for an active link past `expiresAt`. */
    links: (
      accountId: string,
    ): Array<Omit<MockKycLink, 'status'> & { status: MockKycLink['status'] | 'expired' }> =>
      mock.account(accountId).kycLinks.map((l) => ({
        ...l,
        status: l.status === 'active' && !live(l) ? 'expired' : l.status,
      })),
    /** The holder passes verification on the account's current link. */
    complete: (accountId: string) => finish(accountId, 'completed'),
    /** The holder fails verification on the account's current link. */
    fail: (accountId: string) => finish(accountId, 'rejected'),
  };
}
