import { pathToFileURL } from 'node:url';

/** Runs `main` when the file is executed directly (`npx tsx examples/x.ts`), not when a test imports it. */
export function runIfMain(moduleUrl: string, main: () => Promise<unknown>): void {
  const entry = process.argv[1];
  if (entry && pathToFileURL(entry).href === moduleUrl) {
    main().catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
  }
}
