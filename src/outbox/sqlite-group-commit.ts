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

/**
 * The next turn of the event loop, by a message port: a test's fake clock (`vi.useFakeTimers()`, installed even
 * before this module loads) fakes `setImmediate` and `setTimeout`, never a port, and answers must not wait for a
 * clock someone has to advance. The port holds the process open only while answers wait.
 */
function turns(flush: () => void): () => void {
  type Held = { ref?(): void; unref?(): void };
  let channel: MessageChannel | undefined;
  return () => {
    if (!channel) {
      const opened = new MessageChannel();
      opened.port1.onmessage = () => {
        (opened.port1 as unknown as Held).unref?.();
        flush();
      };
      channel = opened;
    }
    (channel.port1 as unknown as Held).ref?.();
    channel.port2.postMessage(null);
  };
}

/**
 * `answer(run)` runs `run` (one answer's statement) in the transaction of the current turn, committed once the
 * turn's other answers have joined it, and resolves with its result after the commit. One that throws rejects
 * alone and is rolled back alone (a savepoint); a commit that fails, or a handle that fails (closed), rejects
 * every answer of the batch, none of them written. A write made while the caller's transaction is open on the
 * handle runs at once, as a statement of it, as it always did; answers queued before such a transaction began
 * wait for it to end.
 */
export function groupCommit(db: SqliteDatabase) {
  let queue: Pending<unknown>[] | undefined;
  const later = turns(() => flush());

  const flush = () => {
    const batch = queue ?? [];
    queue = undefined;
    try {
      // A transaction of the caller's began since these were queued: they wait for it to end (looked at again
      // each millisecond, by the clock, not each turn, which would spin), rather than join it and be rolled back
      // with it after they resolved.
      if (db.isTransaction === true) {
        queue = batch;
        globalThis.setTimeout(later, 1);
        return;
      }
      if (batch.length === 1 || db.isTransaction !== false) {
        for (const write of batch) settleOne(write);
        return;
      }
      commitTogether(db, batch);
    } catch (error) {
      // The handle itself failed (closed, a ROLLBACK refused): every answer of the batch is told, none is lost.
      for (const write of batch) write.reject(error);
    }
  };

  return <T>(run: () => T): Promise<T> => {
    // Inside the caller's transaction: now, as a statement of it, as it always did.
    if (db.isTransaction === true) return new Promise<T>((resolve) => resolve(run()));
    return new Promise<T>((resolve, reject) => {
      if (!queue) {
        queue = [];
        later();
      }
      queue.push({ run, resolve, reject } as Pending<unknown>);
    });
  };
}

/** The batch in one transaction, each write in a savepoint; resolves or rejects each once the commit is done. */
function commitTogether(db: SqliteDatabase, batch: Pending<unknown>[]): void {
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
    throw error;
  }
  batch.forEach((write, i) => {
    const { ok, value } = results[i]!;
    if (ok) write.resolve(value);
    else write.reject(value);
  });
}

function settleOne(write: Pending<unknown>): void {
  try {
    write.resolve(write.run());
  } catch (error) {
    write.reject(error);
  }
}
