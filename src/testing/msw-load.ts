/**
 * msw, when the app has it, loaded once as `payments-service-sdk/testing` loads, so that `mock.handlers` can
 * stay a plain property. Its absence is kept, not thrown: `mock.fetch` and `startMockServer` need no msw, and
 * only `mock.handlers` reports it. The CJS build swaps this file for `msw-load.cjs.ts` (a top-level await
 * cannot exist there); see tsdown.config.ts.
 */
export const loaded: unknown = await import('msw').then(
  (module) => module,
  (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
);
