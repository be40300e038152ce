import type * as Msw from 'msw';
import type { PaymentsMock } from './mock.js';
import { loaded } from './msw-load.js';
import { escapeRegExp } from './router.js';

/** The MSW handlers of a mock: one catch-all under its base URL. */
export type MockHandlers = Msw.HttpHandler[];

/** msw 2 and 3 both export `http.all` and `HttpResponse.error`; msw 1 and older (with `rest`) do not. */
function mswApi(): typeof Msw {
  const module = loaded as Partial<typeof Msw> | Error;
  if (module instanceof Error) {
    throw new Error(
      'mock.handlers needs msw 2 or 3 (`npm i -D msw`), which could not be loaded ' +
        `(${module.message.split('\n')[0]}). mock.fetch and startMockServer need no msw.`,
    );
  }
  if (typeof module.http?.all !== 'function' || typeof module.HttpResponse?.error !== 'function') {
    throw new Error(
      'mock.handlers needs msw 2 or 3; the msw installed has no `http` export (msw 1 or older?)',
    );
  }
  return module as typeof Msw;
}

/**
 * One `http.all` handler matching the mock's origin and base path. The client IP is read from
 * `X-Forwarded-For` (first entry) when present, else 127.0.0.1.
 */
export function createHandlers(mock: Pick<PaymentsMock, 'baseUrl' | 'handle'>): MockHandlers {
  const { http, HttpResponse } = mswApi();
  const pattern = new RegExp(`^${escapeRegExp(mock.baseUrl)}(?:/.*)?$`);
  return [
    http.all(pattern, async ({ request }) => {
      const response = await mock.handle(request);
      // A cut connection: MSW turns this into a network error (TypeError: Failed to fetch) in the client.
      return response.type === 'error' ? HttpResponse.error() : response;
    }),
  ];
}
