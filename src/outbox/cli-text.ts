import type { ReconciliationReport } from '../payouts/reconcile/reconcile.js';
import { amountText } from '../payouts/reconcile/reconcile-rows.js';
import { OPEN_STATES, type PayoutRecord } from './types.js';

/** What `payments-outbox` prints: aligned tables of records, one record's trail, a reconciliation. */

/** The amount as enqueued: `amount` is major units already; `amountMinor` is written as `amountText` writes it. */
const amountOf = ({ body }: PayoutRecord) =>
  body.amount === undefined
    ? amountText(body.amountMinor, String(body.currency))
    : `${body.amount} ${String(body.currency).trim().toUpperCase()}`;

/** Rows as an aligned text table. */
export function table(rows: string[][]): string {
  // reduce, not Math.max(...): a spread of a long list (--limit 200000) overflows the stack.
  const widths = rows[0]!.map((_, i) => rows.reduce((w, r) => Math.max(w, r[i]!.length), 0));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function listText(records: PayoutRecord[]): string {
  if (records.length === 0) return '(no payouts)';
  const head = ['REFERENCE', 'STATE', 'AMOUNT', 'CREATED', 'NEXT ATTEMPT', 'REASON'];
  const rows = records.map((r) => [
    r.reference,
    r.state,
    amountOf(r),
    r.createdAt.toISOString(),
    (OPEN_STATES as readonly string[]).includes(r.state) ? r.nextAttemptAt.toISOString() : '-',
    (r.reason ?? '').slice(0, 80),
  ]);
  return table([head, ...rows]);
}

export function showText(r: PayoutRecord): string {
  const lines = [
    `reference   ${r.reference}`,
    `state       ${r.state}${r.accepted ? ' (accepted: never sent again, only looked up)' : ''}`,
    `amount      ${amountOf(r)} to ${r.body.beneficiary.accountName} (${r.body.beneficiary.bankCode} ${r.body.beneficiary.accountNumber})`,
    ...(r.matchRemark ? [`remark      ${r.matchRemark} (the listing recognises it by this)`] : []),
    `created     ${r.createdAt.toISOString()}   updated ${r.updatedAt.toISOString()}`,
    `sends       ${r.sends} (${r.answered} proven not to have moved money)`,
    ...(r.reason ? [`reason      ${r.reason}`] : []),
    ...(r.payout ? [`payout      ${r.payout.id}`] : []),
    ...(r.transaction ? [`transaction ${r.transaction.id} (${r.transaction.status} when found)`] : []),
    ...(r.status
      ? [
          `status      ${r.status} since ${r.statusAt?.toISOString()}${r.finalAt ? ` (final since ${r.finalAt.toISOString()})` : ''}`,
        ]
      : []),
    ...(r.uetr ? [`uetr        ${r.uetr} ${JSON.stringify(r.trackingCodes ?? {})}`] : []),
    ...(r.changes.length
      ? [
          `changes     ${r.changes
            .map(
              (c) =>
                `${c.seq}. ${c.kind === 'status' ? c.status : c.kind}${c.seq > r.delivered ? ' (hooks not run yet)' : ''}`,
            )
            .join(', ')}`,
        ]
      : []),
    '',
    'attempts:',
  ];
  const trail = r.attempts.map((a) => [
    a.at,
    a.kind,
    a.status === undefined ? '' : String(a.status),
    a.error ?? '',
    a.requestId ?? '',
    `${a.by ? `${a.by}: ` : ''}${a.detail ?? ''}`.slice(0, 100),
  ]);
  return `${lines.join('\n')}\n${trail.length ? table([['AT', 'KIND', 'STATUS', 'ERROR', 'REQUEST ID', 'DETAIL'], ...trail]) : '(none)'}`;
}

/** A reconciliation as a table of its differences, and a line that sums it up. */
export function reconciliationText(report: ReconciliationReport): string {
  const head = ['KIND', 'REFERENCE', 'TRANSACTION', 'EXPECTED', 'LISTED', 'DETAIL'];
  const rows = report.rows.map((r) => [
    r.kind,
    r.reference ?? '-',
    r.transactionId ?? '-',
    r.expected ?? '-',
    r.listed ?? '-',
    r.detail.slice(0, 100),
  ]);
  // Incomplete: a listing not read to its end, or clocks that could not be compared (the reason says which).
  const read = report.complete ? 'read to its end' : `NOT conclusive (${report.reason})`;
  const summary = `${report.from} to ${report.to}: ${report.listed} withdrawals listed, ${report.payouts} payouts recorded, ${report.rows.length} differences; the listing was ${read}`;
  return report.rows.length ? `${table([head, ...rows])}\n${summary}` : summary;
}
