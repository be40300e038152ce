import { type PaymentsClient, PayoutNotFinalError, RequestValidationError } from '../index.js';
import { trackPayout } from '../payouts/index.js';
import { formatOf, payoutLines } from './cli-lines.js';
import { UsageError } from './cli-open.js';
import { workText } from './cli-text.js';
import type { PayoutOutbox } from './outbox.js';
import type { WorkOptions } from './work.js';

/** `payments-outbox`'s commands that record, send or follow payouts: `enqueue`, `work` and `track`. */

/** What a command prints (as text, or as JSON with `--json`), and its exit code. */
export interface Outcome {
  data: unknown;
  text: string;
  code: number;
}

/** Why a line was not recorded, in one line: each field refused and why. */
function refusal(error: unknown): string {
  if (error instanceof RequestValidationError) {
    return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
  }
  throw error;
}

/**
 * Records the payouts of a JSON or CSV input, each checked by `enqueue` as your app's calls are. A line refused
 * is reported with its number and records nothing; the others are recorded. Every line needs its own
 * `externalReference`: the same file enqueued again then records nothing twice.
 */
export async function enqueueCommand(
  outbox: PayoutOutbox,
  input: { text: string; path: string | undefined; format: string | undefined; digits: number | undefined },
): Promise<Outcome> {
  let format: 'csv' | 'json';
  try {
    format = formatOf(input.format, input.path, input.text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const lines = payoutLines(input.text, format);
  if (lines.length === 0) throw new UsageError('enqueue: no payouts in the input');
  const done: Array<{ line: number; reference: string; enqueued: boolean; state: string }> = [];
  const refused: Array<{ line: number; error: string }> = [];
  for (const entry of lines) {
    if ('error' in entry) {
      refused.push(entry);
      continue;
    }
    const reference = entry.body.externalReference;
    if (typeof reference !== 'string' || reference.trim() === '') {
      const error =
        'externalReference: is required here, so that enqueueing the same input again records nothing twice';
      refused.push({ line: entry.line, error });
      continue;
    }
    try {
      const options = input.digits === undefined ? {} : { digits: input.digits };
      const result = await outbox.enqueue(entry.body as never, options);
      done.push({ line: entry.line, ...result, state: result.record.state });
    } catch (error) {
      refused.push({ line: entry.line, error: refusal(error) });
    }
  }
  const text = [
    ...done.map(
      (d) => `line ${d.line}: ${d.reference} ${d.enqueued ? 'recorded' : 'already recorded'} (${d.state})`,
    ),
    ...refused.map((r) => `line ${r.line}: NOT recorded: ${r.error}`),
    `${lines.length} payout line(s): ${done.filter((d) => d.enqueued).length} recorded, ${done.filter((d) => !d.enqueued).length} already recorded, ${refused.length} refused`,
  ].join('\n');
  const data = {
    recorded: done.map(({ line, reference, enqueued, state }) => ({ line, reference, enqueued, state })),
    refused,
  };
  return { data, text, code: refused.length > 0 ? 1 : 0 };
}

/**
 * Settles payouts: `--until drained` (a cron: what is due, then a tracking round, then exit) or `--forever`
 * (until SIGTERM or SIGINT, then the steps in flight finish). Sums up what it did and what needs a person.
 */
export async function workCommand(
  outbox: PayoutOutbox,
  options: { forever: boolean; concurrency: number | undefined; owner: string },
): Promise<Outcome> {
  const stop = new AbortController();
  const given: WorkOptions = {
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    onError: (error) => process.stderr.write(`payments-outbox: ${(error as Error).message ?? error}\n`),
  };
  const signals = ['SIGTERM', 'SIGINT'] as const;
  const abort = () => stop.abort();
  if (options.forever) {
    for (const signal of signals) process.once(signal, abort);
    process.stderr.write(`payments-outbox: ${options.owner} working until SIGTERM or SIGINT\n`);
  }
  try {
    const summary = await outbox.work(
      options.forever ? { ...given, signal: stop.signal } : { ...given, until: 'drained' },
    );
    const { states } = await outbox.count();
    const needs = states.unknown + states.not_sent + states.refused;
    return { data: { ...summary, needsPerson: needs }, text: workText(summary, needs), code: 0 };
  } finally {
    for (const signal of signals) process.off(signal, abort);
  }
}

/**
 * Follows one sent payout to a final status through the listing (by its id, and its remark where the service
 * assigns its reference), recording each change in the outbox as an observation: exit 0 at a final status, 1
 * when `timeoutMs` passes first.
 */
export async function trackCommand(
  outbox: PayoutOutbox,
  client: PaymentsClient,
  reference: string,
  timeoutMs: number | undefined,
): Promise<Outcome> {
  const record = await outbox.get(reference);
  if (!record) throw new UsageError(`no payout ${reference} in the outbox`);
  const sent = record.payout ?? record.transaction;
  if (!sent) {
    const text = `${reference} is ${record.state}: only a sent payout (created or recovered) can be followed`;
    return { data: { reference, state: record.state, error: text }, text, code: 1 };
  }
  const changes: string[] = [];
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once('SIGINT', abort);
  try {
    const options = {
      payout: { id: sent.id, created_at: sent.created_at },
      signal: stop.signal,
      ...(timeoutMs === undefined ? {} : { totalTimeout: timeoutMs }),
    };
    for await (const change of trackPayout(client, reference, options)) {
      await outbox.observe(change.transaction);
      const what = change.kind === 'status' ? change.status : `${change.kind} ${change.uetr ?? ''}`.trim();
      changes.push(`${change.at}  ${what}${change.final ? ' (final)' : ''}`);
      process.stderr.write(`payments-outbox: ${reference} ${changes.at(-1)}\n`);
    }
    const after = await outbox.get(reference);
    return { data: after, text: [...changes, `${reference}: ${after?.status} (final)`].join('\n'), code: 0 };
  } catch (error) {
    if (!(error instanceof PayoutNotFinalError)) throw error;
    const after = await outbox.get(reference);
    return { data: { record: after, error: error.message }, text: error.message, code: 1 };
  } finally {
    process.off('SIGINT', abort);
  }
}
