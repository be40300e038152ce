import { type HttpHandler, HttpResponse, http } from 'msw';

/** The MSW handlers of a mock: one catch-all under its base URL. */
export type MockHandlers = HttpHandler[];

/**
 * One `http.all` handler matching the mock's origin and base path. The client IP is read from
 * `X-Forwarded-For` (first entry) when present, else 127.0.0.1.
 */
export function createHandlers(mock: {
  baseUrl: string;
  handle: (request: Request) => Promise<Response>;
}): MockHandlers {
  const escaped = mock.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${escaped}(?:/.*)?$`);
  return [
    http.all(pattern, async ({ request }) => {
      const response = await mock.handle(request);
      // A cut connection: MSW turns this into a network error (TypeError: Failed to fetch) in the client.
      return response.type === 'error' ? HttpResponse.error() : response;
    }),
  ];
}
