import { remarkKey } from '../payouts/proof/payout-identity.js';
import type { PostgresQueryable } from './postgres.js';

/**
 * A first-version table's remarks, keyed by `remarkKey` itself: PostgreSQL's regex and case folding differ from
 * JavaScript's (a no-break space, non-ASCII capitals), and a key computed otherwise would let a twin remark in.
 * `migrate()` passes them to the upgrade script (`postgresMigration`). None for a table of a later version.
 */
export async function firstVersionKeys(
  client: PostgresQueryable,
  table: string,
): Promise<Array<[string, string]>> {
  const { rows: found } = await client.query(
    `SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'match_remark' AND NOT attisdropped`,
    [table],
  );
  if (found.length === 0) return [];
  // Read through to_jsonb: another process's upgrade may drop the column before this statement gets the table.
  const { rows: old } = await client.query(
    `SELECT reference, to_jsonb(t) ->> 'match_remark' AS remark FROM ${table} t
     WHERE to_jsonb(t) ->> 'match_remark' IS NOT NULL`,
  );
  return old.map((r) => [String(r.reference), remarkKey(String(r.remark))]);
}
