/**
 * The CJS build's `msw-load.ts`: `require` in place of a top-level `import()`. msw 3 ships ESM only, which
 * `require` loads from Node 22.12 on; before that its error is kept and reported by `mock.handlers`.
 */
export const loaded: unknown = (() => {
  try {
    return require('msw');
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
})();
