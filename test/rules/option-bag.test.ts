/**
 * Option bags: each declared once (its keys with their checks), read once at the edge of a call. A call reads the
 * caller's options in one pass, whatever layers it crosses, and every value is checked before anything is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  PaymentsClient,
  type RequestOptions,
  RequestValidationError,
  UnknownOptionError,
} from '../../src/index.js';
import { option, optionBag } from '../../src/rules/option-bag.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { rejection } from '../helpers/fixtures.js';
import { usdPayout, wiredClient } from '../helpers/wire.js';

const mock = createPaymentsMock();
afterEach(() => mock.reset());

/** A client on the mock, and the requests it sent (`POST /payouts`). */
function setup() {
  const { client, wire } = wiredClient(mock);
  const sent = () => wire.map((w) => `${w.method} ${new URL(w.url).pathname.replace(/^.*\/external/, '')}`);
  return { client, sent };
}

/** `options` behind a proxy that counts the passes over its keys (each spread, copy or key check is one). */
function watched<T extends object>(options: T) {
  const passes = { count: 0 };
  const proxy = new Proxy(options, {
    ownKeys(target) {
      passes.count++;
      return Reflect.ownKeys(target);
    },
  });
  return { proxy, passes };
}

const usd = usdPayout;

describe('a call reads its options once', () => {
  it('payouts.create passes over the caller options once, and sends them', async () => {
    const { client, sent } = setup();
    const { proxy, passes } = watched({ timeout: 5_000, headers: { 'X-Trace': 't-1' }, digits: 2 });
    await client.payouts.create(usd('once-1'), proxy);
    expect(passes.count).toBe(1);
    expect(sent()).toEqual(['POST /payouts']);
  });

  it('beneficiaries.create and a GET pass over them once too', async () => {
    const { client } = setup();
    const get = watched<RequestOptions>({ timeout: 5_000 });
    await client.banks.list(get.proxy);
    expect(get.passes.count).toBe(1);
    const write = watched({ allowUnclassified: true, maxRetries: 0 });
    await client.beneficiaries
      .create({ currency: 'NGN' } as never, write.proxy)
      .catch((error: unknown) => error);
    expect(write.passes.count).toBe(1);
  });
});

describe('every value is checked before anything is sent', () => {
  it('options a class makes are copied too: changed after a call, they are checked again', async () => {
    const { client, sent } = setup();
    class CallOptions {
      headers: Record<string, string> = { 'X-Trace': 'a' };
      timeout = 5_000;
    }
    const options = new CallOptions();
    await client.banks.list(options);
    options.headers = { 'X-Account-Id': 'another-tenant' };
    const error = await rejection(client.banks.list(options));
    expect((error as RequestValidationError).field).toBe('headers.X-Account-Id');
    expect(sent()).toEqual(['GET /banks']);
  });

  it('a per-call header the client owns is refused, named under headers', async () => {
    const { client, sent } = setup();
    const error = await rejection(client.banks.list({ headers: { 'X-API-Key': 'other' } }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('headers.X-API-Key');
    expect((error as Error).message).toMatch(/use apiKey/);
    expect(sent()).toEqual([]);
  });

  it('a signal that is not an AbortSignal is refused, not taken for a lost connection', async () => {
    const { client, sent } = setup();
    const error = await rejection(client.payouts.create(usd('sig-1'), { signal: 'stop' as never }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('signal');
    expect(sent()).toEqual([]);
  });

  it('options that are not an object are refused', async () => {
    const { client, sent } = setup();
    const error = await rejection(client.banks.list('fast' as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('options');
    expect(sent()).toEqual([]);
  });

  it('allowUnclassified must be true or false', async () => {
    const { client, sent } = setup();
    const error = await rejection(
      client.beneficiaries.create({} as never, { allowUnclassified: 'yes' as never }),
    );
    expect((error as RequestValidationError).field).toBe('allowUnclassified');
    expect(sent()).toEqual([]);
  });

  it('a list with a bad maxPages rejects on first use, naming it', async () => {
    const { client, sent } = setup();
    const list = client.transactions.list({}, { maxPages: 0 });
    const error = await rejection(list);
    expect((error as RequestValidationError).field).toBe('maxPages');
    expect(sent()).toEqual([]);
  });
});

describe('client options are checked when the client is made', () => {
  const make = (extra: object) => () =>
    new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, ...extra } as never);
  const field = (build: () => unknown) => {
    try {
      build();
    } catch (error) {
      expect(error).toBeInstanceOf(RequestValidationError);
      return (error as RequestValidationError).field;
    }
    return 'accepted';
  };

  it('a hook, a fetch or a switch of the wrong type is named, not found at the first call', () => {
    expect(field(make({ hooks: { onRequest: 'log' } }))).toBe('hooks.onRequest');
    expect(field(make({ fetch: {} }))).toBe('fetch');
    expect(field(make({ allowInsecureHttp: 'yes' }))).toBe('allowInsecureHttp');
    expect(field(make({ fetchOptions: { redirect: 'follow' } }))).toBe('fetchOptions.redirect');
    expect(field(make({ appInfo: { name: 'shop', version: '2 1' } }))).toBe('appInfo.version');
    expect(field(make({ headers: { 'X-Account-Id': 'x' } }))).toBe('headers.X-Account-Id');
  });

  it('what the types allow is taken, null limits as the defaults', () => {
    expect(
      field(make({ timeout: null, maxRetries: 0, hooks: { onRetry: () => undefined }, logLevel: 'off' })),
    ).toBe('accepted');
  });
});

describe('optionBag', () => {
  const narrow = optionBag<{ a?: number }>({ a: option((n: unknown) => n === 1, 'must be 1') });
  const wide = optionBag<{ a?: number; b?: string }>({
    ...narrow.shape,
    b: z.optional(z.string()),
  });

  it('copies own data only: an inherited value is absent', () => {
    const given = Object.assign(Object.create({ a: 2 }) as object, { b: 'x' });
    expect(wide.read(given, 'wide')).toEqual({ b: 'x' });
  });

  it('names the bag and the key meant for an unknown key', () => {
    expect(() => wide.read({ bb: 'x' } as never, 'wide', ['options'])).toThrow(UnknownOptionError);
    expect(() => wide.read({ bb: 'x' } as never, 'wide')).toThrow(
      'Unknown option bb for wide: did you mean b?',
    );
  });

  it('names a bad value under its prefix', () => {
    const error = (() => {
      try {
        wide.read({ a: 2 }, 'wide', ['options']);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('options.a');
    expect((error as Error).message).toMatch(/must be 1/);
  });

  it('a copy a wider bag made passes a narrower one as it is; the other way round it is read again', () => {
    const read = wide.read({ a: 1, b: 'x' }, 'wide');
    expect(narrow.read(read as never, 'narrow')).toBe(read);
    const narrowed = narrow.read({ a: 1 }, 'narrow');
    const again = wide.read(narrowed, 'wide');
    expect(again).toEqual({ a: 1 });
    expect(again).not.toBe(narrowed);
  });

  it('no options are undefined', () => {
    expect(wide.read(undefined, 'wide')).toBeUndefined();
    expect(wide.read(null, 'wide')).toBeUndefined();
  });
});
