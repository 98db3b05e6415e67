import { serviceFacts, servesGet } from './facts';

// The facts the other checks compare the deploy files with; if these fail, the derivation broke.
describe('facts derived from the sources', () => {
  it('account: config keys (inherited ones too), env reads, routes and build outputs', () => {
    const f = serviceFacts('account');
    expect(f.configKeys).toEqual(expect.arrayContaining(['PORT', 'HOST', 'DATABASE_URL', 'LOG_LEVEL', 'RATE_LIMIT_PER_MINUTE', 'SHUTDOWN_TIMEOUT_MS', 'SHUTDOWN_DRAIN_MS']));
    expect([...f.envNames]).toEqual(expect.arrayContaining(['APP_CREDENTIALS', 'APP_CREDENTIALS_FILE', 'NODE_ENV']));
    expect(f.defaultPort).toBe(3001);
    expect(servesGet(f, '/health/live')).toBe(true);
    expect(servesGet(f, '/health/ready')).toBe(true);
    expect(servesGet(f, '/metrics')).toBe(true);
    expect(servesGet(f, '/health/nowhere')).toBe(false);
    expect(f.routes).toEqual(expect.arrayContaining([{ method: 'POST', path: '/account/v1.0.1/auths/:auth_id' }]));
    expect(f.mainOutput).toBe('dist/main.js');
    expect(f.outputOf('src/database/migrate.ts')).toBe('dist/database/migrate.js');
  });

  it('location: config keys, routes and build output', () => {
    const f = serviceFacts('location');
    expect(f.configKeys).toEqual(expect.arrayContaining(['PORT', 'REDIS_URL', 'GEOCODER', 'LOG_LEVEL']));
    expect(f.defaultPort).toBe(3002);
    expect(servesGet(f, '/health/live')).toBe(true);
    expect(f.mainOutput).toBe('dist/main.js');
  });
});
