import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { nextAttemptAfter, STANDARD_RETRY_DELAYS_MS } from './deliver-due-webhooks';
import { signedRequest } from './deliver-webhook';
import { generateWebhookSecret } from './webhook-secret';

describe('webhook signing and retries', () => {
  const payload = { id: 'msg_test1', type: 'key.created', timestamp: '2026-01-01T00:00:00.000Z', account_id: 'acc_1', data: { api_key: { id: 'k1' } } };

  it('signs per the Standard Webhooks specification: the library verifies it, and refuses a changed body or another secret', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { body, headers } = signedRequest(secret, payload, new Date());
    expect(headers).toMatchObject({ 'webhook-id': 'msg_test1', 'webhook-timestamp': expect.stringMatching(/^\d+$/), 'webhook-signature': expect.stringMatching(/^v1,/), 'content-type': 'application/json' });
    expect(new Webhook(secret).verify(body, headers)).toEqual(payload);
    expect(() => new Webhook(secret).verify(body.replace('k1', 'k2'), headers)).toThrow(/signature/i);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/signature/i);
    // A replayed message outside the library's 5-minute tolerance is refused.
    const old = signedRequest(secret, payload, new Date(Date.now() - 10 * 60_000));
    expect(() => new Webhook(secret).verify(old.body, old.headers)).toThrow(/timestamp/i);
  });

  it('retries on the Standard Webhooks schedule for about a day, then gives up', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const delays = [1, 2, 3, 4, 5, 6, 7].map((n) => nextAttemptAfter(n, t0, STANDARD_RETRY_DELAYS_MS)!.getTime() - t0.getTime());
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(nextAttemptAfter(8, t0, STANDARD_RETRY_DELAYS_MS)).toBeNull();
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(24 * 3_600_000);
    expect(total).toBeLessThan(30 * 3_600_000);
  });
});
