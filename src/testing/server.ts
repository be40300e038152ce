import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anyValue, optionBag } from '../rules/option-bag.js';
import { createPaymentsMock, type PaymentsMock } from './mock.js';
import { MOCK_OPTION_SHAPE, readMockOptions } from './option-bags.js';
import type { PaymentsMockOptions } from './options.js';

/** Options of `startMockServer`: a port (0 = any free one) and a mock, or the options to create one. */
export interface MockServerOptions extends PaymentsMockOptions {
  port?: number;
  mock?: PaymentsMock;
}

/** The options of `startMockServer`: the mock's, with `port` and `mock` (both read where they are used). */
const serverOptions = optionBag<MockServerOptions>({ ...MOCK_OPTION_SHAPE, port: anyValue, mock: anyValue });

/** A running loopback server. */
export interface MockServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `url` plus the mock's base path: pass it as the client's `baseUrl`. */
  baseUrl: string;
  port: number;
  mock: PaymentsMock;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

// Hop-by-hop and framing headers belong to this connection, not to the request the mock sees.
const SKIPPED = new Set('host connection content-length transfer-encoding keep-alive expect'.split(' '));

async function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!SKIPPED.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1] ?? '');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
  return new Request(`${origin}${req.url ?? '/'}`, { method, headers, body, signal });
}

async function answer(mock: PaymentsMock, origin: string, req: IncomingMessage, res: ServerResponse) {
  const ip = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  // The client going away (a timeout or abort closes its socket) aborts the request, ending a hung answer.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  let response: Response;
  try {
    response = await mock.handle(await toRequest(req, origin, gone.signal), { clientIp: ip });
  } catch (error) {
    // The service's time here too: Node's own Date header (added only when none is set) reads this machine's clock.
    res.writeHead(500, { 'content-type': 'application/json', date: new Date(mock.now()).toUTCString() });
    res.end(JSON.stringify({ status: 500, message: `Mock error: ${(error as Error).message}` }));
    return;
  }
  if (response.type === 'error') {
    req.socket.destroy();
    return;
  }
  // The mock's `date` goes out as it is: Node's http adds its own Date only to an answer that has none.
  const headers = Object.fromEntries(response.headers);
  // A body fault declares the whole length and sends part of it: streamed, and cut by destroying the socket.
  if (headers['content-length'] !== undefined && response.body) {
    res.writeHead(response.status, headers);
    try {
      // Each chunk is flushed before the next read, so a cut comes after the bytes already sent, as it would.
      for await (const chunk of response.body) await new Promise((done) => res.write(chunk, done));
      res.end();
    } catch {
      req.socket.destroy();
    }
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

/** Serves a mock over real HTTP on 127.0.0.1, for clients that cannot be intercepted by MSW. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const read = readMockOptions(options, 'startMockServer', serverOptions);
  const { port = 0, mock: given, ...mockOptions } = read;
  const mock = given ?? createPaymentsMock(mockOptions);
  // Loaded here, not at the top, so the MSW half of this entry also bundles for the browser (setupWorker).
  const { createServer } = await import('node:http');
  const sockets = new Set<Socket>();
  let origin = '';
  const server = createServer((req, res) => {
    void answer(mock, origin, req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: actualPort } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${actualPort}`;
  return {
    url: origin,
    baseUrl: `${origin}${mock.basePath}`,
    port: actualPort,
    mock,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      }),
  };
}
