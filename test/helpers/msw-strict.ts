/**
 * `server.listen(STRICT)`: any request without a handler fails the test. MSW 2 names the option
 * `onUnhandledRequest`, MSW 3 `onUnhandledFrame`; each ignores the other's, and the suite runs under both
 * (`npm test` on msw 3, `npm run test:msw2` on msw 2).
 */
export const STRICT = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as {
  onUnhandledFrame: 'error';
};
