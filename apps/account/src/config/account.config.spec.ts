import { ConfigError } from '@geoaccount/api';
import { loadAccountConfig } from './account.config';

describe('account config', () => {
  it('has the contract defaults', () => {
    const config = loadAccountConfig({});
    expect(config).toMatchObject({
      PORT: 3001,
      HOST: '0.0.0.0',
      SIGNATURE_MAX_SKEW_SECONDS: 300,
      SIGNATURE_REQUIRE_NONCE: false,
      LOG_LEVEL: 'info',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config).toMatchObject({ ARGON2_MEMORY_KIB: 19456, ARGON2_TIME_COST: 2, ARGON2_PARALLELISM: 1 });
    expect(config).toMatchObject({ LOGIN_MAX_FAILURES: 5, LOGIN_FAILURE_WINDOW_SECONDS: 900, LOGIN_LOCK_SECONDS: 900 });
    expect(config).toMatchObject({
      DATABASE_AUTO_MIGRATE: true,
      DATABASE_POOL_SIZE: 10,
      EMBEDDED_PG_PORT: 5433,
      BODY_LIMIT: '64kb',
      TZ: 'UTC',
    });
    expect(config.AUTH_MAX_DEPTH).toBe(64);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SIGNATURE_MAX_SKEW_SECONDS', '-1'],
    ['SIGNATURE_REQUIRE_NONCE', 'sometimes'],
    ['LOG_LEVEL', 'loud'],
    ['ARGON2_MEMORY_KIB', '512'],
    ['ARGON2_TIME_COST', '0'],
    ['ARGON2_PARALLELISM', 'x'],
    ['LOGIN_MAX_FAILURES', '0'],
    ['LOGIN_FAILURE_WINDOW_SECONDS', '-5'],
    ['LOGIN_LOCK_SECONDS', '1.5'],
    ['DATABASE_AUTO_MIGRATE', 'maybe'],
    ['DATABASE_POOL_SIZE', '0'],
    ['EMBEDDED_PG_PORT', '70000'],
    ['BODY_LIMIT', 'lots'],
    ['TZ', 'Mars/Olympus_Mons'],
    ['AUTH_MAX_DEPTH', '0'],
    ['AUTH_MAX_DEPTH', '1001'],
    ['AUTH_MAX_DEPTH', 'deep'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadAccountConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadAccountConfig({ [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}=`));
  });

  it.each(['0'])('refuses SIGNATURE_REQUIRE_NONCE=true with SIGNATURE_MAX_SKEW_SECONDS=%s, naming both', (skew) => {
    const load = () => loadAccountConfig({ SIGNATURE_REQUIRE_NONCE: 'true', SIGNATURE_MAX_SKEW_SECONDS: skew });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow('SIGNATURE_REQUIRE_NONCE=true needs SIGNATURE_MAX_SKEW_SECONDS of at least 1');
    expect(loadAccountConfig({ SIGNATURE_REQUIRE_NONCE: 'true', SIGNATURE_MAX_SKEW_SECONDS: '1' }).SIGNATURE_REQUIRE_NONCE).toBe(true);
  });

  it('reads valid values', () => {
    expect(loadAccountConfig({ PORT: '8080', DATABASE_URL: 'postgres://u:p@h:5432/db', SIGNATURE_MAX_SKEW_SECONDS: '0' })).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://u:p@h:5432/db',
      SIGNATURE_MAX_SKEW_SECONDS: 0,
    });
    expect(loadAccountConfig({ SIGNATURE_REQUIRE_NONCE: 'true' }).SIGNATURE_REQUIRE_NONCE).toBe(true);
    expect(loadAccountConfig({ DATABASE_AUTO_MIGRATE: 'false', TZ: 'Asia/Shanghai', BODY_LIMIT: '1mb' })).toMatchObject({
      DATABASE_AUTO_MIGRATE: false,
      TZ: 'Asia/Shanghai',
      BODY_LIMIT: '1mb',
    });
    expect(loadAccountConfig({ AUTH_MAX_DEPTH: '8' }).AUTH_MAX_DEPTH).toBe(8);
  });

  it('takes the control plane settings (docs/contract.md §1, §14) and never echoes a token', () => {
    expect(loadAccountConfig({})).toMatchObject({ CREDENTIAL_USE_FLUSH_SECONDS: 60, CONTROL_PLANE_POLL_MS: 1000 });
    expect(loadAccountConfig({}).ADMIN_TOKEN).toBeUndefined();
    const token = 'x'.repeat(32);
    expect(loadAccountConfig({ ADMIN_TOKEN: token, INTERNAL_TOKEN: token, CREDENTIAL_USE_FLUSH_SECONDS: '5' })).toMatchObject({
      ADMIN_TOKEN: token,
      INTERNAL_TOKEN: token,
      CREDENTIAL_USE_FLUSH_SECONDS: 5,
    });
    for (const name of ['ADMIN_TOKEN', 'INTERNAL_TOKEN']) {
      const short = 'short-secret-token-31-characters';
      expect(() => loadAccountConfig({ [name]: short.slice(0, 31) })).toThrow(new RegExp(`^Invalid environment variable ${name}: expected at least 32`));
      expect(() => loadAccountConfig({ [name]: short.slice(0, 31) })).not.toThrow(/short-secret/);
    }
    expect(() => loadAccountConfig({ CREDENTIAL_USE_FLUSH_SECONDS: '0' })).toThrow(ConfigError);
    expect(() => loadAccountConfig({ CONTROL_PLANE_POLL_MS: '6000' })).toThrow(ConfigError);
  });
});
