import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { type CliOutput, main } from '../../src/testing/cli.js';
import { DEFAULT_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const BIN = fileURLToPath(new URL('../../src/testing/bin.ts', import.meta.url));

/** An output that keeps what the command writes. */
function capture(): CliOutput & { lines: { out: string[]; err: string[] } } {
  const lines = { out: [] as string[], err: [] as string[] };
  return { lines, out: (line) => lines.out.push(line), err: (line) => lines.err.push(line) };
}

const running: MockServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** `main` that must start a mock; the mock is closed after the test. */
async function started(args: string[], io: CliOutput): Promise<MockServer> {
  const result = await main(args, io);
  if (!result.server) throw new Error(`not started (exit ${result.code})`);
  running.push(result.server);
  return result.server;
}

/** The env lines of the command's standard output, as a shell would set them. */
function envOf(out: string[]): Record<string, string> {
  return Object.fromEntries(
    out.map((line) => {
      const m = /^export (PAYMENTS_[A-Z_]+)=(\S+)$/.exec(line);
      if (!m) throw new Error(`not an env line: ${line}`);
      return [m[1], m[2]];
    }),
  );
}

describe('payments-service-sdk mock (the bin)', () => {
  it('serves the mock on 127.0.0.1 as a real process, prints two env lines a client runs on, stops on SIGINT', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'mock', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    const exited = once(child, 'exit');
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.split('\n').length > 2) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited ${code} before printing: ${out}${err}`)));
    });
    const env = envOf(out.trim().split('\n'));
    expect(Object.keys(env)).toEqual(['PAYMENTS_BASE_URL', 'PAYMENTS_API_KEY']);
    expect(env.PAYMENTS_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/external$/);

    // Pasted into the environment, a client with no options reaches it.
    vi.stubEnv('PAYMENTS_BASE_URL', env.PAYMENTS_BASE_URL);
    vi.stubEnv('PAYMENTS_API_KEY', env.PAYMENTS_API_KEY);
    const client = new PaymentsClient({ logLevel: 'off' });
    expect((await client.banks.list()).length).toBeGreaterThan(0);
    const page = await client.transactions.list({ pageSize: 5 });
    expect(page.data.length).toBe(5);
    expect(err).toContain('GET /api/v1/external/banks 200');

    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(err).toContain('mock stopped');
  });

  it('prints the key the mock accepts and its base URL, and a line per request unless --quiet', async () => {
    const io = capture();
    const server = await started(['mock', '--port', '0'], io);
    expect(io.lines.out).toEqual([
      `export PAYMENTS_BASE_URL=${server.baseUrl}`,
      `export PAYMENTS_API_KEY=${DEFAULT_API_KEY}`,
    ]);
    await fetch(`${server.baseUrl}/banks`, { headers: { 'X-API-Key': DEFAULT_API_KEY } });
    await fetch(`${server.baseUrl}/banks`);
    expect(io.lines.err.slice(-2)).toEqual([
      'GET /api/v1/external/banks 200',
      'GET /api/v1/external/banks 401',
    ]);

    const quiet = capture();
    const other = await started(['mock', '--port', '0', '--quiet'], quiet);
    await fetch(`${other.baseUrl}/banks`, { headers: { 'X-API-Key': DEFAULT_API_KEY } });
    expect(quiet.lines.err.filter((l) => l.startsWith('GET '))).toEqual([]);
  });

  it("gives each payout a life: completed 2 s after it is made, a wire's UETR after 5 s", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const server = await started(['mock', '--port', '0', '--quiet'], capture());
      const client = new PaymentsClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl: server.baseUrl,
        logLevel: 'off',
      });
      await client.payouts.create({
        amount: '250.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
        externalReference: 'life-1',
      });
      const listed = async () =>
        (await client.transactions.list({ pageSize: 10 })).data.find(
          (t) => t.external_reference === 'life-1',
        );
      await vi.advanceTimersByTimeAsync(1999);
      expect((await listed())?.status).toBe('processing');
      await vi.advanceTimersByTimeAsync(1);
      expect((await listed())?.status).toBe('completed');
      expect((await listed())?.uetr).toBeUndefined();
      await vi.advanceTimersByTimeAsync(3000);
      expect((await listed())?.uetr).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('listens on the port asked for', async () => {
    const probe = await startMockServer({ port: 0 });
    const { port } = probe;
    await probe.close();
    const server = await started(['mock', '--port', String(port)], capture());
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('names a port in use and the way out', async () => {
    const taken = await startMockServer({ port: 0 });
    running.push(taken);
    const io = capture();
    expect(await main(['mock', '--port', String(taken.port)], io)).toEqual({ code: 1 });
    expect(io.lines.err.join('\n')).toContain(
      `port ${taken.port} on 127.0.0.1 is in use: pass --port with another, or --port 0 for any free one`,
    );
    expect(io.lines.out).toEqual([]);
  });

  it.each([
    [['mock', '--port', 'abc'], '--port must be a whole number from 0 to 65535, not "abc"'],
    [['mock', '--port', '65536'], '--port must be a whole number from 0 to 65535, not "65536"'],
    [['mock', '--port=-1'], '--port must be a whole number from 0 to 65535, not "-1"'],
    [['mock', '--port', '-1'], "option '--port' argument is ambiguous"],
    [['mock', '--port'], "option '--port <value>' argument missing"],
    [['mock', '--prot', '1'], "unknown option '--prot'"],
    [['mokc'], 'unknown command "mokc"; did you mean "mock"?'],
    [['mock', 'extra'], 'mock takes no argument ("extra")'],
    [[], 'a command is needed'],
  ])('refuses %j before starting anything: %s', async (args, message) => {
    const io = capture();
    expect(await main(args, io)).toEqual({ code: 2 });
    expect(io.lines.err[0]).toContain(message);
    expect(io.lines.err.join('\n')).toContain('Usage: payments-service-sdk mock');
    expect(io.lines.out).toEqual([]);
  });

  it('prints its usage for --help', async () => {
    for (const args of [['--help'], ['mock', '--help'], ['help']]) {
      const io = capture();
      expect(await main(args, io)).toEqual({ code: 0 });
      expect(io.lines.out.join('\n')).toContain('Usage: payments-service-sdk mock [--port N] [--quiet]');
    }
  });
});
