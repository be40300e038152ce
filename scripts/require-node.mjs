#!/usr/bin/env node
// Runs before `npm test` and `npm run demo`: on a Node too old for the toolchain, one clear line instead of a
// stack from deep inside vitest or tsx. Plain ES2015, so that every Node that could be installed parses it.
// The SDK itself needs Node 22 (ky 2); the test runner (vitest 5) needs 22.12.
const NEEDED = [22, 12, 0];
const found = process.versions.node;
const have = found.split('.').map(Number);
const first = [0, 1, 2].find((i) => have[i] !== NEEDED[i]);
if (first !== undefined && have[first] < NEEDED[first]) {
  console.error(
    `payments-service-sdk: needs Node ${NEEDED.join('.')} or newer (found ${found}); ` +
      'run `nvm use` (see .nvmrc) or install Node 24.',
  );
  process.exit(1);
}
