/** Where the client refuses to run, the whole-call deadline, and the Node version guard of the scripts. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APITimeoutError, PaymentsClient, PaymentsError, RequestValidationError } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { rejection } from '../helpers/fixtures.js';

const mock = createPaymentsMock();
const options = {
  apiKey: DEFAULT_API_KEY,
  baseUrl: mock.baseUrl,
  fetch: mock.fetch,
  logLevel: 'off',
} as const;
afterEach(() => {
  mock.reset();
  vi.unstubAllGlobals();
});

describe('a browser-like global scope', () => {
  it('is refused, naming the opt-out, unless dangerouslyAllowBrowser is set', async () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => new PaymentsClient(options)).toThrow(PaymentsError);
    expect(() => new PaymentsClient(options)).toThrow(/browser.*dangerouslyAllowBrowser: true/s);
    const client = new PaymentsClient({ ...options, dangerouslyAllowBrowser: true });
    expect((await client.banks.list()).length).toBeGreaterThan(0);
    // A client derived from an allowed one stays allowed.
    expect(() => client.withOptions({ timeout: 1000 })).not.toThrow();
  });

  it('needs both window and document: a worker-like scope with only one of them is not a page', () => {
    vi.stubGlobal('window', {});
    expect(() => new PaymentsClient(options)).not.toThrow();
    vi.unstubAllGlobals();
    vi.stubGlobal('document', {});
    expect(() => new PaymentsClient(options)).not.toThrow();
  });
});

describe('totalTimeout', () => {
  it('bounds the whole call: a server that is never ready ends it without another attempt', async () => {
    // Every answer asks for a 30 s wait; the 200 ms deadline ends the call instead of waiting.
    mock.faults.next({ match: 'GET /banks', status: 503, times: 10, retryAfter: 30 });
    let sent = 0;
    const client = new PaymentsClient({
      ...options,
      fetch: (input, init) => {
        sent++;
        return mock.fetch(input, init);
      },
      maxRetries: 5,
      totalTimeout: 200,
    });
    expect(await rejection(client.banks.list())).toBeInstanceOf(APITimeoutError);
    expect(sent).toBe(1);
  });

  it('holds across attempts when each attempt has no timeout of its own, and per call', async () => {
    mock.faults.hang('GET /banks');
    const client = new PaymentsClient({ ...options, timeout: 0 });
    expect(await rejection(client.banks.list({ totalTimeout: 50 }))).toBeInstanceOf(APITimeoutError);
  });

  it('is checked like timeout, before anything is sent', async () => {
    expect(() => new PaymentsClient({ ...options, totalTimeout: -1 })).toThrow(RequestValidationError);
    expect(() => new PaymentsClient({ ...options, totalTimeout: 2 ** 31 })).toThrow(RequestValidationError);
    const client = new PaymentsClient(options);
    const error = await rejection(client.banks.list({ totalTimeout: 1.5 }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toContain('totalTimeout');
  });
});

describe('scripts/require-node.mjs', () => {
  const script = fileURLToPath(new URL('../../scripts/require-node.mjs', import.meta.url));
  it('passes on this Node and names what is needed and what was found otherwise', () => {
    expect(spawnSync(process.execPath, [script]).status).toBe(0);
    // An old Node is faked by overriding what the script reads, in a child process.
    const old = spawnSync(
      process.execPath,
      [
        '--import',
        'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})',
        script,
      ],
      { encoding: 'utf8' },
    );
    expect(old.status).toBe(1);
    expect(old.stderr.trim()).toBe(
      'payments-service-sdk: needs Node 22.12.0 or newer (found 20.20.2); run `nvm use` (see .nvmrc) or install Node 24.',
    );
  });
});
