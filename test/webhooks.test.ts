import { describe, expect, it, vi } from 'vitest';
import { KNOWN_WEBHOOK_EVENTS, parseWebhook, type UetrAssignedFields, WebhookError } from '../src/index.js';

const raw = '{"event":"transaction.uetr.assigned","uetr":"8a562c67-ca16-48ba-b074-65581be6f011"}';

describe('parseWebhook', () => {
  it('parses a raw string, Buffer or Uint8Array body', async () => {
    const expected = { event: 'transaction.uetr.assigned', uetr: '8a562c67-ca16-48ba-b074-65581be6f011' };
    expect(await parseWebhook(raw, { unverified: true })).toEqual(expected);
    expect(await parseWebhook(Buffer.from(raw), { unverified: true })).toEqual(expected);
    const typed = await parseWebhook<UetrAssignedFields>(new TextEncoder().encode(raw), { unverified: true });
    expect(typed.uetr).toBe(expected.uetr);
  });

  it('passes the exact raw bytes and headers to the verifier, and rejects on false or throw', async () => {
    const verify = vi.fn(async () => true);
    const headers = { 'x-signature': 'abc' };
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(raw)]);
    await parseWebhook(bytes, { headers, verify });
    expect(verify).toHaveBeenCalledWith(bytes, headers);
    await parseWebhook(raw, { verify });
    expect(verify).toHaveBeenLastCalledWith(raw, {});
    await expect(parseWebhook(raw, { verify: () => false })).rejects.toThrow(WebhookError);
    await expect(
      parseWebhook(raw, {
        verify: () => {
          throw new Error('bad signature');
        },
      }),
    ).rejects.toThrow(/verification failed/);
  });

  it('parses the bytes as they arrived, even when the verifier wipes its buffer afterwards', async () => {
    const bytes = new TextEncoder().encode(raw);
    const verify = (body: string | Uint8Array) => {
      if (body instanceof Uint8Array) body.fill(0x20);
      return true;
    };
    expect(await parseWebhook(bytes, { verify })).toMatchObject({ event: 'transaction.uetr.assigned' });
  });

  it('refuses a parsed object, non-JSON and non-objects', async () => {
    await expect(parseWebhook({ event: 'x' } as any, { unverified: true })).rejects.toThrow(
      /raw request body/,
    );
    await expect(parseWebhook('not json', { unverified: true })).rejects.toThrow(/not JSON/);
    await expect(parseWebhook('[1,2]', { unverified: true })).rejects.toThrow(/not a JSON object/);
  });

  it('refuses to parse without a verifier unless told unverified: true', async () => {
    await expect(parseWebhook(raw, {} as any)).rejects.toThrow(/needs a verify function/);
    await expect(parseWebhook(raw, undefined as any)).rejects.toThrow(/needs a verify function/);
  });

  it('names the events the spec states', () => {
    expect(KNOWN_WEBHOOK_EVENTS).toEqual(['payer_name.active', 'transaction.uetr.assigned']);
  });
});
