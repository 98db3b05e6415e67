import { clientIpOf, parseTrustedProxies } from './trusted-proxies';

describe('TRUSTED_PROXIES', () => {
  const proxies = parseTrustedProxies('10.0.0.0/8, 192.168.1.7, fd00::/8');

  it('takes the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientIpOf('203.0.113.9', '1.2.3.4', parseTrustedProxies(undefined))).toBe('203.0.113.9');
    expect(clientIpOf('::ffff:203.0.113.9', '1.2.3.4', parseTrustedProxies(''))).toBe('203.0.113.9');
  });

  it('walks X-Forwarded-For from the right through trusted hops only', () => {
    expect(clientIpOf('10.1.2.3', '198.51.100.7', proxies)).toBe('198.51.100.7');
    expect(clientIpOf('10.1.2.3', '198.51.100.7, 192.168.1.7', proxies)).toBe('198.51.100.7');
    // A forged left part is never reached: the first untrusted hop is the client.
    expect(clientIpOf('10.1.2.3', '6.6.6.6, 198.51.100.7, 10.9.9.9', proxies)).toBe('198.51.100.7');
    expect(clientIpOf('fd00::1', '2001:db8::5', proxies)).toBe('2001:db8::5');
    expect(clientIpOf('::ffff:10.0.0.1', ['198.51.100.7', '10.0.0.2'], proxies)).toBe('198.51.100.7');
  });

  it('ignores X-Forwarded-For from an untrusted peer', () => {
    expect(clientIpOf('203.0.113.9', '10.1.1.1, 1.2.3.4', proxies)).toBe('203.0.113.9');
  });

  it('stops at a hop that is not an address, and takes all-proxies as the farthest proxy', () => {
    expect(clientIpOf('10.1.2.3', 'unknown, 10.0.0.5', proxies)).toBe('10.0.0.5');
    expect(clientIpOf('10.1.2.3', '', proxies)).toBe('10.1.2.3');
  });

  it.each(['10.0.0.0/33', 'not-an-ip', '10.0.0.0/8/1', '::/129', '10.0.0.0/x'])('refuses %s, naming it', (entry) => {
    expect(() => parseTrustedProxies(entry)).toThrow(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR`);
  });
});
