import { describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../helpers/mock.js';
import { useTracing } from './spans.js';

const { provider, spans } = useTracing();

// A span's export answered on a fake timer that the test's end dropped kept the next test's flush waiting 30 s.
describe('the tracing helper under a fake clock', () => {
  it('a span ended under a fake clock the test then drops', () => {
    useFakeClock();
    provider.getTracer('test').startSpan('under a fake clock').end();
    expect(spans().map((s) => s.name)).toEqual(['under a fake clock']);
    vi.useRealTimers();
  });

  it('leaves nothing for the next test’s flush to wait on', async () => {
    await expect(provider.forceFlush({ timeoutMillis: 5_000 })).resolves.toBeUndefined();
  });
});
