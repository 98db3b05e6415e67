import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT, SERVICES, serviceFacts, servesGet } from './facts';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  secrets?: string[];
  read_only?: boolean;
  stop_grace_period?: string;
}

const composeDir = join(ROOT, 'docker');
const compose = parse(readFileSync(join(composeDir, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  secrets: Record<string, { file: string }>;
};
const services = compose.services;

describe('docker/compose.yaml', () => {
  it('runs the whole stack: PostgreSQL, Redis, the migration step and both services', () => {
    expect(Object.keys(services).sort()).toEqual(['account', 'account-migrate', 'location', 'postgres', 'redis']);
  });

  it('checks the health of every long-running service', () => {
    for (const name of ['postgres', 'redis', 'account', 'location']) expect(services[name]!.healthcheck?.test.length).toBeGreaterThan(0);
  });

  it('starts each service after what it needs is healthy, and account after the migration succeeded', () => {
    expect(services['account-migrate']!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services.account!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      'account-migrate': { condition: 'service_completed_successfully' },
    });
    expect(services.location!.depends_on).toEqual({ redis: { condition: 'service_healthy' } });
  });

  it('gives Redis no anonymous user: location signs in as an ACL user with a password', () => {
    const command = ([] as string[]).concat((services.redis as unknown as { command: string[] | string }).command).join(' ');
    expect(command).toContain('--user default off');
    expect(command).toMatch(/--user geoaccount on ">\$\$REDIS_PASSWORD"/);
    expect(services.location!.environment?.REDIS_URL).toMatch(/^redis:\/\/geoaccount:\$\{REDIS_PASSWORD:-[^}]+\}@redis:6379\/0$/);
    expect(services.redis!.healthcheck!.test.join(' ')).toContain('--user geoaccount');
  });

  it('migrates with the compiled migrate command of the account image', () => {
    const migrate = services['account-migrate']!;
    expect(migrate.image).toBe(services.account!.image);
    expect(migrate.command).toEqual(['node', serviceFacts('account').outputOf('src/database/migrate.ts')]);
    expect(Object.keys(migrate.environment ?? {})).toEqual(['DATABASE_URL']);
    expect(services.account!.environment?.DATABASE_AUTO_MIGRATE).toBe('false');
  });

  it('mounts the app credentials as a secret file', () => {
    expect(compose.secrets.app_credentials!.file).toBe('./app-credentials.json');
    expect(existsSync(join(composeDir, 'app-credentials.example.json'))).toBe(true);
    const example = JSON.parse(readFileSync(join(composeDir, 'app-credentials.example.json'), 'utf8')) as { appToken: string }[];
    expect(example[0]!.appToken).toMatch(/^app-[0-9a-f]+$/);
  });

  describe.each(SERVICES)('service %s', (name) => {
    const facts = serviceFacts(name);
    const service = services[name]!;
    const env = service.environment ?? {};
    const port = Number(env.PORT ?? facts.defaultPort);

    it('is built from its Dockerfile with the repository as context', () => {
      expect(resolve(composeDir, service.build!.context)).toBe(ROOT);
      expect(service.build!.dockerfile).toBe(`docker/${name}.Dockerfile`);
      expect(existsSync(join(ROOT, service.build!.dockerfile))).toBe(true);
    });

    it('sets only environment variables the service reads', () => {
      expect(Object.keys(env).filter((n) => !facts.envNames.has(n))).toEqual([]);
      expect(env.APP_CREDENTIALS_FILE).toBe('/run/secrets/app_credentials');
      expect(service.secrets).toEqual(name === 'account' ? ['app_credentials', 'pii_keys'] : ['app_credentials']);
      if (name === 'account') expect(env.PII_KEYS_FILE).toBe('/run/secrets/pii_keys');
      expect(env[name === 'account' ? 'DATABASE_URL' : 'REDIS_URL']).toBeDefined();
    });

    it('publishes and probes the port it listens on, at a path it serves', () => {
      // The API port, and /metrics on METRICS_PORT (published on the host's loopback only).
      const metricsPort = env.METRICS_PORT === undefined ? [] : [Number(env.METRICS_PORT)];
      expect(service.ports?.map((p) => Number(p.split(':').pop()))).toEqual([port, ...metricsPort]);
      for (const p of service.ports?.slice(1) ?? []) expect(p.startsWith('127.0.0.1:')).toBe(true);
      const url = /http:\/\/127\.0\.0\.1:(\d+)(\/[a-z/]+)/.exec(service.healthcheck!.test.join(' '));
      expect(Number(url?.[1])).toBe(port);
      expect(url?.[2]).toBe('/health/ready');
      expect(servesGet(facts, url![2]!)).toBe(true);
    });

    it('runs read-only with a grace period longer than the shutdown bound', () => {
      expect(service.read_only).toBe(true);
      const grace = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]) * 1000;
      expect(grace).toBeGreaterThan(Number(env.SHUTDOWN_TIMEOUT_MS));
    });
  });
});
