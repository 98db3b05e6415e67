/**
 * `rediss://` (docs/operations.md): the cache over TLS to a private `redis-server` started here
 * with certificates made by openssl (a CA of its own and a server certificate for 127.0.0.1),
 * signing in as an ACL user with a password; the server's certificate is verified with
 * `REDIS_CA_FILE`, and without it the cache is not used (verification is never skipped).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocationSession, startLocation } from './support/location-session';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A CA and a server certificate for 127.0.0.1 signed by it, in `dir`. */
function makeCertificates(dir: string): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=geoaccount test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext');
}

describe('the cache over TLS (rediss://) with an ACL user', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lbs-redis-tls-'));
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    makeCertificates(dir);
    const port = await freePort();
    server = spawn(
      'redis-server',
      [
        '--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1',
        '--tls-cert-file', join(dir, 'server.pem'), '--tls-key-file', join(dir, 'server.key'), '--tls-ca-cert-file', join(dir, 'ca.pem'),
        '--tls-auth-clients', 'no', '--save', '', '--appendonly', 'no', '--dir', dir,
        '--user', 'default', 'off', '--user', 'geoaccount', 'on', '>tls-test-password', '~*', '&*', '+@all', '-@admin',
      ],
      { stdio: 'ignore' },
    );
    url = `rediss://geoaccount:tls-test-password@127.0.0.1:${port}/0`;
    await new Promise((r) => setTimeout(r, 500));
  });

  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function twice(s: LocationSession): Promise<string[]> {
    const point = { longitude: '113.2644', latitude: '23.1291' };
    const stats: string[] = [];
    for (let i = 0; i < 2; i += 1) stats.push(String(((await s.client.lbsQuery(point)).body as { lbsStat?: unknown }).lbsStat));
    return stats;
  }

  it('caches through a verified TLS connection', async () => {
    const s = await startLocation({ REDIS_URL: url, REDIS_CA_FILE: join(dir, 'ca.pem'), REDIS_COMMAND_TIMEOUT_MS: '2000', RATE_LIMIT_PER_MINUTE: '0' });
    try {
      expect(await twice(s)).toEqual(['1', '2']);
      expect((await fetch(`${s.url}/health/ready`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('does not use a server whose certificate it cannot verify', async () => {
    const s = await startLocation({ REDIS_URL: url, REDIS_COMMAND_TIMEOUT_MS: '500', RATE_LIMIT_PER_MINUTE: '0' });
    try {
      // Answered from the geocoder each time: nothing cached.
      expect(await twice(s)).toEqual(['1', '1']);
    } finally {
      await s.close();
    }
  });
});
