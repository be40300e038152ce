import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/index.js';
import {
  BASE,
  CANARY_KEY,
  fail,
  makeClient,
  ok,
  settle,
  useFakeClock,
  useServer,
} from '../helpers/server.js';

const server = useServer();

function recorder() {
  const lines: string[] = [];
  const logger: Logger = {
    error: (m) => lines.push(`error ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    info: (m) => lines.push(`info ${m}`),
    debug: (m) => lines.push(`debug ${m}`),
  };
  return { lines, logger };
}

describe('logging', () => {
  it('logs requests at debug and retries at info, never the key, masking account numbers', async () => {
    useFakeClock();
    let calls = 0;
    server.use(
      http.get(`${BASE}/lookup-like/:n`, () => (++calls === 1 ? fail(503, 'busy') : ok({ fine: true }))),
    );
    const { lines, logger } = recorder();
    const client = makeClient({ logger, logLevel: 'debug' });
    await settle(client.request({ method: 'GET', path: '/lookup-like/0123456789' }));
    vi.useRealTimers();
    expect(
      lines.some((l) => l.startsWith('debug [payments-service-sdk] → GET /lookup-like/******6789')),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('info [payments-service-sdk] retrying GET'))).toBe(true);
    expect(lines.join('\n')).not.toContain(CANARY_KEY);
    expect(lines.join('\n')).not.toContain('0123456789');
  });

  it('is quiet at the default level and honours PAYMENTS_LOG', async () => {
    server.use(http.get(`${BASE}/thing`, () => ok({})));
    const quiet = recorder();
    await makeClient({ logger: quiet.logger, logLevel: undefined }).request({
      method: 'GET',
      path: '/thing',
    });
    expect(quiet.lines).toEqual([]);
    vi.stubEnv('PAYMENTS_LOG', 'debug');
    const loud = recorder();
    await makeClient({ logger: loud.logger, logLevel: undefined }).request({ method: 'GET', path: '/thing' });
    expect(loud.lines.length).toBeGreaterThan(0);
  });
});
