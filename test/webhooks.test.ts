import { describe, expect, it, vi } from 'vitest';
import { KNOWN_WEBHOOK_EVENTS, parseWebhook, type UetrAssignedFields, WebhookError } from '../src/index.js';

const raw = '{"event":"transaction.uetr.assigned","uetr":"8a562c67-ca16-48ba-b074-65581be6f011"}';

describe('parseWebhook', () => {
  it('parses a raw string, Buffer or Uint8Array body', async () => {
    const expected = { event: 'transaction.uetr.assigned', uetr: '8a562c67-ca16-48ba-b074-65581be6f011' };
    expect(await parseWebhook(raw)).toEqual(expected);
    expect(await parseWebhook(Buffer.from(raw))).toEqual(expected);
    const typed = await parseWebhook<UetrAssignedFields>(new TextEncoder().encode(raw));
    expect(typed.uetr).toBe(expected.uetr);
  });

  it('passes the exact raw text and headers to the verifier, and rejects on false or throw', async () => {
    const verify = vi.fn(async () => true);
    const headers = { 'x-signature': 'abc' };
    await parseWebhook(Buffer.from(raw), { headers, verify });
    expect(verify).toHaveBeenCalledWith(raw, headers);
    await expect(parseWebhook(raw, { verify: () => false })).rejects.toThrow(WebhookError);
    await expect(
      parseWebhook(raw, {
        verify: () => {
          throw new Error('bad signature');
        },
      }),
    ).rejects.toThrow(/verification failed/);
  });

  it('refuses a parsed object, non-JSON and non-objects', async () => {
    await expect(parseWebhook({ event: 'x' } as any)).rejects.toThrow(/raw request body/);
    await expect(parseWebhook('not json')).rejects.toThrow(/not JSON/);
    await expect(parseWebhook('[1,2]')).rejects.toThrow(/not a JSON object/);
  });

  it('names the events the spec states', () => {
    expect(KNOWN_WEBHOOK_EVENTS).toEqual(['payer_name.active', 'transaction.uetr.assigned']);
  });
});
