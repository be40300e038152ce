/**
 * Which msw this run resolves: `npm test` runs on msw 3, `npm run test:msw2` on msw 2 (vitest.msw2.config.ts
 * aliases `msw` to the `msw2` install). msw 3 added `isPassthroughResponse`; msw 2 still has `cleanUrl`.
 */
import * as msw from 'msw';
import { expect, it } from 'vitest';

it('runs on the msw major the config names', () => {
  const major = 'isPassthroughResponse' in msw ? 3 : 'cleanUrl' in msw ? 2 : undefined;
  expect(major).toBe(Number(process.env.VITEST_MSW_MAJOR ?? 3));
});
