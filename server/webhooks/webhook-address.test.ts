import { describe, expect, it } from 'vitest';
import { assertWebhookUrlAllowed, isPrivateAddress, publicOnlyLookup } from './webhook-address';

describe('webhook addresses', () => {
  it('classifies private, loopback, link-local and reserved addresses, in every spelling', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fe80::1', 'fd00::1', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '::127.0.0.1', 'not-an-ip']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['1.1.1.1', '8.8.8.8', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });

  it('refuses URLs naming or resolving to such addresses unless allowed; only http(s)', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'https://[::1]/hook', 'http://169.254.169.254/latest/meta-data', 'http://localhost:3000/x', 'http://10.0.0.5/', 'http://[::ffff:127.0.0.1]/']) {
      await expect(assertWebhookUrlAllowed(url, false), url).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/private, loopback or link-local/) });
      await expect(assertWebhookUrlAllowed(url, true), url).resolves.toBeInstanceOf(URL);
    }
    await expect(assertWebhookUrlAllowed('https://1.1.1.1/hook', false)).resolves.toBeInstanceOf(URL);
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)']) {
      await expect(assertWebhookUrlAllowed(url, true), url).rejects.toMatchObject({ code: 'bad_request' });
    }
  });

  it('the sockets’ lookup answers no private address (DNS rebinding), and any with the switch on', async () => {
    const lookup = (allow: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: string }>((resolve) => publicOnlyLookup(allow)('localhost', { family: 0 }, (err, address) => resolve({ err, address: address as string })));
    const refused = await lookup(false);
    expect(refused.err).toMatchObject({ code: 'EPRIVATEADDRESS', message: expect.stringMatching(/localhost resolves only to private/) });
    const allowed = await lookup(true);
    expect(allowed.err).toBeNull();
    expect(isPrivateAddress(allowed.address)).toBe(true);
  });
});
