import { parseArgs } from 'node:util';
import { createPaymentsMock } from './mock.js';
import { type MockServer, startMockServer } from './server.js';
import { DEFAULT_API_KEY } from './state.js';

/** The port `payments-service-sdk mock` listens on without `--port`: the same every day, so a pasted .env holds. */
export const DEFAULT_MOCK_PORT = 4010;

/** A payout's life on the command's mock, so code that follows one (`trackPayout`) sees it end. */
const LIFE = { completeAfterMs: 2000, uetrAfterMs: 5000 };

const USAGE = `Usage: payments-service-sdk mock [--port N] [--quiet]

  mock        serves the bundled Payments Service mock (payments-service-sdk/testing) on 127.0.0.1 until
              Ctrl-C, and prints the two lines that point a PaymentsClient at it: no key, no network.
              A payout completes ${LIFE.completeAfterMs / 1000} s after it is made; a cross-border one gets its
              UETR after ${LIFE.uetrAfterMs / 1000} s
  --port N    the port (default ${DEFAULT_MOCK_PORT}; 0 for any free one)
  --quiet     no line per request
  --help      this text`;

/** Where the command writes: `out` the lines to paste (standard output), `err` everything said to a person. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** A usage mistake: said with the usage, exit 2, before anything starts. */
class UsageError extends Error {}

/** `--port` as a port number, or a UsageError naming the flag. */
function port(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MOCK_PORT;
  const n = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n <= 65_535)) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${value}"`);
  return n;
}

/** A slip of `word`: its letters in another order, or one letter changed, added or dropped. */
function close(typed: string, word: string): boolean {
  const sorted = (w: string) => [...w].sort().join('');
  if (sorted(typed) === sorted(word)) return true;
  const [short, long] = typed.length <= word.length ? [typed, word] : [word, typed];
  if (long.length - short.length > 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  const skip = long.length > short.length ? 1 : 0;
  return short.slice(i + 1 - skip) === long.slice(i + 1);
}

/** The command line read: `mock` and its options, `help`, or a UsageError. */
function read(args: readonly string[]): { help: true } | { help: false; port: number; quiet: boolean } {
  let parsed: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { port: { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean' } },
    });
  }
  try {
    parsed = parse();
  } catch (error) {
    // node:util's own wording, which names the option ("Unknown option '--prot'").
    throw new UsageError(
      (error as Error).message.replace(/^Unknown/, 'unknown').replace(/^Option/, 'option'),
    );
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === 'help') return { help: true };
  if (command === undefined) throw new UsageError('a command is needed');
  if (command !== 'mock') {
    const near = close(command, 'mock') ? '; did you mean "mock"?' : '';
    throw new UsageError(`unknown command "${command}"${near}`);
  }
  if (rest.length) throw new UsageError(`mock takes no argument ("${rest.join(' ')}")`);
  return { help: false, port: port(parsed.values.port), quiet: parsed.values.quiet === true };
}

/**
 * `payments-service-sdk <args>`: `{ code }` when it is done (0 after `--help`, 2 for a usage mistake, 1 when the
 * mock could not start), or `{ code: 0, server }` with the mock running; the bin stops it on SIGINT or SIGTERM.
 */
export async function main(
  args: readonly string[],
  io: CliOutput,
): Promise<{ code: number; server?: MockServer }> {
  let options: ReturnType<typeof read>;
  try {
    options = read(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`payments-service-sdk: ${error.message}`);
    io.err(USAGE);
    return { code: 2 };
  }
  if (options.help) {
    io.out(USAGE);
    return { code: 0 };
  }
  const mock = createPaymentsMock({ lifecycle: LIFE });
  if (!options.quiet) {
    // One line per request on stderr, so the two lines on stdout stay the only ones to paste.
    const handle = mock.handle.bind(mock);
    mock.handle = async (request, context) => {
      const response = await handle(request, context);
      io.err(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
      return response;
    };
  }
  let server: MockServer;
  try {
    server = await startMockServer({ mock, port: options.port });
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    io.err(
      inUse
        ? `payments-service-sdk: port ${options.port} on 127.0.0.1 is in use: pass --port with another, or --port 0 for any free one`
        : `payments-service-sdk: the mock could not start: ${(error as Error).message}`,
    );
    return { code: 1 };
  }
  io.err(
    `payments-service-sdk: the Payments Service mock is serving ${server.url} (seeded data; nothing leaves`,
  );
  io.err(
    'this machine). Paste these two lines into your shell or .env, then run your code; Ctrl-C stops it.',
  );
  io.out(`export PAYMENTS_BASE_URL=${server.baseUrl}`);
  io.out(`export PAYMENTS_API_KEY=${DEFAULT_API_KEY}`);
  return { code: 0, server };
}
