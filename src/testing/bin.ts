#!/usr/bin/env node
import { main } from './cli.js';

// `payments-service-sdk mock`: the package's bin (package.json). Runs until SIGINT or SIGTERM, then closes.
const { code, server } = await main(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;
if (server) {
  const stop = () => {
    server.close().then(
      () => process.stderr.write('payments-service-sdk: mock stopped\n'),
      (error: Error) => {
        process.stderr.write(`payments-service-sdk: ${error.message}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
