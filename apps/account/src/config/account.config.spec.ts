import { ConfigError } from '@geoaccount/api';
import { loadAccountConfig } from './account.config';

describe('account config', () => {
  it('has the contract defaults', () => {
    const config = loadAccountConfig({});
    expect(config).toMatchObject({ PORT: 3001, HOST: '0.0.0.0', SIGNATURE_MAX_SKEW_SECONDS: 300, LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SIGNATURE_MAX_SKEW_SECONDS', '-1'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadAccountConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadAccountConfig({ [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}=`));
  });

  it('reads valid values', () => {
    expect(loadAccountConfig({ PORT: '8080', DATABASE_URL: 'postgres://u:p@h:5432/db', SIGNATURE_MAX_SKEW_SECONDS: '0' })).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://u:p@h:5432/db',
      SIGNATURE_MAX_SKEW_SECONDS: 0,
    });
  });
});
