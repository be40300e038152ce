import type { SqliteDatabase } from './sqlite.js';

/**
 * Group commit of answers: the SQLite store's `write`s issued in one turn of the event loop share one
 * transaction, so one commit (one fsync) makes all of them durable. `node:sqlite` is synchronous, so each commit
 * holds the one event loop every worker of the process shares: at 16 workers the two commits of each payout took
 * half the loop's time (docs/performance.md). Each write still resolves only after the commit that holds it, so
 * an answer is on disk when `write` resolves, as before; a crash before that commit loses it as a crash before a
 * write of its own did, and the row, left in doubt, is looked up before anything is sent again. Claims and marks
 * keep a commit of their own: batching them too measured no gain.
 */

/** An answer waiting for its turn's transaction. */
interface Pending<T> {
  run: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

// Captured at load: a test's fake clock replaces the global, and answers must not wait for it to be advanced.
const nextTurn: (run: () => void) => void =
  typeof globalThis.setImmediate === 'function'
    ? globalThis.setImmediate.bind(globalThis)
    : (run) => globalThis.setTimeout(run, 0);

/**
 * `answer(run)` runs `run` (one answer's statement) in the transaction of the current turn, committed once the
 * turn's other answers have joined it, and resolves with its result after the commit. One that throws rejects
 * alone and is rolled back alone (a savepoint); a commit that fails rejects every answer of the batch, none of
 * them written. On a handle inside a transaction of the caller's, each runs at once, as a statement of that
 * transaction, as it always did.
 */
export function groupCommit(db: SqliteDatabase) {
  let queue: Pending<unknown>[] | undefined;

  const flush = () => {
    const batch = queue ?? [];
    queue = undefined;
    if (batch.length === 1 || db.isTransaction !== false) {
      for (const write of batch) settleOne(write);
      return;
    }
    let results: { ok: boolean; value: unknown }[];
    try {
      db.exec('BEGIN IMMEDIATE');
      results = batch.map(({ run }) => {
        db.exec('SAVEPOINT answer');
        try {
          const value = run();
          db.exec('RELEASE answer');
          return { ok: true, value };
        } catch (error) {
          db.exec('ROLLBACK TO answer');
          db.exec('RELEASE answer');
          return { ok: false, value: error };
        }
      });
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      for (const write of batch) write.reject(error);
      return;
    }
    batch.forEach((write, i) => {
      const { ok, value } = results[i]!;
      if (ok) write.resolve(value);
      else write.reject(value);
    });
  };

  return <T>(run: () => T): Promise<T> => {
    // Inside the caller's transaction: now, as part of it, as it always did.
    if (db.isTransaction === true) return Promise.resolve().then(run);
    return new Promise<T>((resolve, reject) => {
      if (!queue) {
        queue = [];
        nextTurn(flush);
      }
      queue.push({ run, resolve, reject } as Pending<unknown>);
    });
  };
}

function settleOne(write: Pending<unknown>): void {
  try {
    write.resolve(write.run());
  } catch (error) {
    write.reject(error);
  }
}
