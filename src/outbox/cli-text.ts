import type { ReconciliationReport } from '../payouts/reconcile/reconcile.js';
import { amountText } from '../payouts/reconcile/reconcile-rows.js';
import { OPEN_STATES, type OutboxAttempt, type PayoutRecord } from './types.js';
import type { WorkSummary } from './work.js';

/** What `payments-outbox` prints: aligned tables of records, one record's trail, a reconciliation. */

/** The amount as enqueued: `amount` is major units already; `amountMinor` is written as `amountText` writes it. */
const amountOf = ({ body }: PayoutRecord) =>
  body.amount === undefined
    ? amountText(body.amountMinor, String(body.currency))
    : `${body.amount} ${String(body.currency).trim().toUpperCase()}`;

/** Text cut to at most `max` characters at a word's end, with an ellipsis: never mid-word. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max - 1);
  return `${(cut > 0 ? text.slice(0, cut) : text.slice(0, max - 1)).trimEnd()}…`;
}

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

/**
 * Records as a table, the ones that need a person first, each with why (`attention`, else its `reason`). WHY is
 * the last column, cut at a word's end (`show` gives it whole).
 */
export function listText(records: PayoutRecord[]): string {
  if (records.length === 0) return '(no payouts)';
  const head = ['REFERENCE', 'STATE', 'AMOUNT', 'CREATED', 'NEXT ATTEMPT', 'WHY'];
  const rows = records.map((r) => [
    r.reference,
    r.attention && r.lapsedLease ? `${r.state} (lease lapsed)` : r.state,
    amountOf(r),
    r.createdAt.toISOString(),
    (OPEN_STATES as readonly string[]).includes(r.state) ? r.nextAttemptAt.toISOString() : '-',
    clip(r.attention ?? r.reason ?? '-', 160),
  ]);
  const needs = records.filter((r) => r.attention).length;
  const sum =
    needs > 0 ? `\n${needs} need a person: payments-outbox show <reference> for the whole story` : '';
  return `${table([head, ...rows])}${sum}`;
}

/** What a lookup read, in words: its verdict, its window, and the answer's request id. */
const proofText = (a: OutboxAttempt) =>
  `${a.detail ?? '?'} at ${a.at}${a.window ? `, the listing read from ${a.window.from} to ${a.window.to}` : ''}${a.requestId ? ` (${a.requestId})` : ''}`;

export function showText(r: PayoutRecord): string {
  const lastProof = r.attempts.findLast((a) => a.kind === 'lookup' && a.window);
  const lines = [
    `reference   ${r.reference}`,
    `state       ${r.state}${r.accepted ? ' (accepted: never sent again, only looked up)' : ''}`,
    `amount      ${amountOf(r)} to ${r.body.beneficiary.accountName} (${r.body.beneficiary.bankCode} ${r.body.beneficiary.accountNumber})`,
    ...(r.matchRemark ? [`remark      ${r.matchRemark} (the listing recognises it by this)`] : []),
    `created     ${r.createdAt.toISOString()}   updated ${r.updatedAt.toISOString()}`,
    `sends       ${r.sends} (${r.answered} proven not to have moved money)${r.lastSentAt ? `, the last marked at ${r.lastSentAt.toISOString()}` : ''}`,
    ...(r.lease ? [`lease       held by ${r.lease.owner} until ${r.lease.until.toISOString()}`] : []),
    ...(r.lapsedLease
      ? [`lease       LAPSED: ${r.lapsedLease.owner} held it until ${r.lapsedLease.until.toISOString()}`]
      : []),
    ...(r.reason ? [`reason      ${r.reason}`] : []),
    ...(r.attention ? [`needs you   ${r.attention}`] : []),
    ...(lastProof ? [`last proof  ${proofText(lastProof)}`] : []),
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
    a.status === undefined ? '-' : String(a.status),
    a.error ?? '-',
    a.requestId ?? '-',
    `${a.by ? `${a.by}: ` : ''}${a.detail ?? ''}${a.window ? ` (read from ${a.window.from} to ${a.window.to})` : ''}`,
  ]);
  // A POST marked with no answer recorded: its worker stopped before writing what came back.
  const unanswered =
    r.sends > r.answered &&
    r.lastSentAt &&
    !r.attempts.some((a) => a.kind === 'post' && a.at >= r.lastSentAt!.toISOString())
      ? [
          [
            r.lastSentAt.toISOString(),
            'post',
            '-',
            '-',
            '-',
            `marked${r.lapsedLease ? ` by ${r.lapsedLease.owner}` : ''}: no answer recorded (looked up before any other send)`,
          ],
        ]
      : [];
  const rows = [...trail, ...unanswered];
  return `${lines.join('\n')}\n${rows.length ? table([['AT', 'KIND', 'STATUS', 'ERROR', 'REQUEST ID', 'DETAIL'], ...rows]) : '(none)'}`;
}

/** What a `work` run did, and what it left for a person. */
export function workText(s: WorkSummary, needs: number): string {
  const settled = Object.entries(s.settled).map(([state, n]) => `${state} ${n}`);
  const held = s.leased.map((l) => `  ${l.reference} held by ${l.owner} until ${l.until.toISOString()}`);
  const t = s.tracking;
  return [
    `settled: ${settled.length ? settled.join(', ') : 'nothing'}`,
    `left open: ${s.left}${s.nextDueAt ? ` (the next due ${s.nextDueAt.toISOString()})` : ''}`,
    ...(held.length ? ['held by other workers:', ...held] : []),
    `tracking: ${t.rounds} round(s), ${t.requests} listing request(s), ${t.changes} change(s), ${t.delivered} delivered`,
    `need a person: ${needs}${needs ? ' (payments-outbox list)' : ''}`,
  ].join('\n');
}

/** A reconciliation as a table of its differences, and a line that sums it up. */
export function reconciliationText(report: ReconciliationReport): string {
  const head = ['KIND', 'REFERENCE', 'TRANSACTION', 'EXPECTED', 'LISTED', 'DETAIL'];
  // A withdrawal no record accounts for is shown by the reference it is listed under (and its id).
  const rows = report.rows.map((r) => [
    r.stale ? `${r.kind} (stale)` : r.kind,
    r.reference ?? r.listedReference ?? '-',
    r.transactionId ?? '-',
    r.expected ?? '-',
    r.listed ?? '-',
    r.detail,
  ]);
  // Incomplete: a listing not read to its end, or clocks that could not be compared (the reason says which).
  const read = report.complete ? 'read to its end' : `NOT conclusive (${report.reason})`;
  const stale = report.rows.filter((r) => r.stale).length;
  const differ = `${report.rows.length - stale} differences${stale ? `, ${stale} stale record(s) (not followed since: work --until drained brings them up to date)` : ''}`;
  const summary = `${report.from} to ${report.to}: ${report.listed} withdrawals listed, ${report.payouts} payouts recorded, ${differ}; the listing was ${read}`;
  return report.rows.length ? `${table([head, ...rows])}\n${summary}` : summary;
}
