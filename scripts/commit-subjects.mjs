#!/usr/bin/env node
/**
 * Commit subjects stay short: every commit from the one that added this check on has a subject of at most 72
 * characters (the detail goes in the body). Older history is left as it was. Needs the history (a full clone).
 *
 *   node scripts/commit-subjects.mjs
 */
import { execFileSync } from 'node:child_process';

const MAX = 72;
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();

try {
  const added = git('log', '--diff-filter=A', '--format=%H', '--', 'scripts/commit-subjects.mjs')
    .split('\n')
    .at(-1);
  if (!added) throw new Error('the commit that added scripts/commit-subjects.mjs is not in the history');
  const subjects = git('log', '--format=%h %s', `${added}~1..HEAD`).split('\n').filter(Boolean);
  const long = subjects.filter((line) => line.length - line.indexOf(' ') - 1 > MAX);
  for (const line of long) console.log(`too long (${line.length - line.indexOf(' ') - 1}): ${line}`);
  console.log(
    `commit subjects: ${subjects.length} since ${added.slice(0, 7)}, ${long.length} over ${MAX} characters`,
  );
  process.exitCode = long.length ? 1 : 0;
} catch (error) {
  console.log(`commit subjects: ${error.message}`);
  process.exitCode = 1;
}
