import type { PostgresQueryable } from './postgres.js';
import { MS, NOW } from './postgres-life.js';
import { nextTurn } from './turns.js';
import type { OutboxWrite } from './types.js';

/**
 * Batched answers: the PostgreSQL store's `write`s issued while none is in flight, or while one is, go out as one
 * `UPDATE ... FROM jsonb_to_recordset(...)`, each row still fenced by its own token. At 16 workers in one process
 * the client's event loop was the bound (98 % busy), and `pg` spent a good share of it on the round trips of one
 * statement per answer (docs/performance.md). Each write resolves only after the statement that holds it has
 * committed, so an answer is durable when `write` resolves, as before; a statement that fails rejects every
 * write of its batch, none of them written, and each of those rows, left in doubt, is looked up before anything
 * is sent again. A reference met twice in one batch (one owner's write, then a later one's) waits for the next
 * statement, so the two apply in order.
 */
interface Pending {
  reference: string;
  token: number;
  change: OutboxWrite;
  resolve: (written: boolean) => void;
  reject: (error: unknown) => void;
}

/** One answer as a row of the statement's recordset. */
const rowOf = ({ reference, token, change }: Pending) => ({
  reference,
  token,
  state: change.state,
  sends: change.sends,
  answered: change.answered,
  lookups: change.lookups,
  accepted: change.accepted,
  lookup_first: change.lookup_first,
  reason: change.reason,
  result: change.result,
  attempts: change.attempts,
  delay_ms: Math.round(change.delayMs),
  clock_doubt_ms: Math.round(change.clock_doubt_ms),
  last_sent_ms: change.last_sent_at ?? null,
  doubted: change.doubted ?? null,
});

/** `write` of `postgresOutboxStore`: the answers batched as above. */
export function postgresAnswers(client: PostgresQueryable, table: string) {
  // A JSON null in a jsonb field of the recordset is the jsonb `null`, not SQL NULL: `result` is stored as NULL.
  const sql = `UPDATE ${table} t SET state = a.state, sends = a.sends, answered = a.answered,
      lookups = a.lookups, accepted = a.accepted, lookup_first = a.lookup_first, reason = a.reason,
      result = NULLIF(a.result, 'null'::jsonb), attempts = a.attempts, clock_doubt_ms = a.clock_doubt_ms,
      last_sent_at = COALESCE(to_timestamp(a.last_sent_ms / 1000), t.last_sent_at),
      doubted = COALESCE(a.doubted, t.doubted),
      next_attempt_at = ${NOW} + a.delay_ms ${MS}, updated_at = ${NOW}, lease_until = NULL, owner = NULL
    FROM jsonb_to_recordset($1::jsonb) AS a(reference text, token bigint, state text, sends integer,
      answered integer, lookups integer, accepted boolean, lookup_first boolean, reason text, result jsonb,
      attempts jsonb, delay_ms bigint, clock_doubt_ms bigint, last_sent_ms double precision, doubted boolean)
    WHERE t.reference = a.reference AND t.token = a.token RETURNING t.reference`;
  let queue: Pending[] = [];
  let inFlight = false;
  let asked = false;

  const send = async () => {
    asked = false;
    if (inFlight || queue.length === 0) return;
    inFlight = true;
    const batch: Pending[] = [];
    const later: Pending[] = [];
    const seen = new Set<string>();
    for (const write of queue) {
      if (seen.has(write.reference)) later.push(write);
      else {
        seen.add(write.reference);
        batch.push(write);
      }
    }
    queue = later;
    try {
      const { rows } = await client.query(sql, [JSON.stringify(batch.map(rowOf))]);
      const written = new Set(rows.map((row) => String(row.reference)));
      for (const write of batch) write.resolve(written.has(write.reference));
    } catch (error) {
      for (const write of batch) write.reject(error);
    } finally {
      inFlight = false;
      // Those that came while this statement ran have waited already: they go at once.
      if (queue.length > 0) void send();
    }
  };
  const nextTurnSend = nextTurn(() => void send());

  return (reference: string, token: number, change: OutboxWrite): Promise<boolean> =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ reference, token, change, resolve, reject });
      // The answers of this turn join this one; with a statement in flight, they go when it ends.
      if (!inFlight && !asked) {
        asked = true;
        nextTurnSend();
      }
    });
}
