import { ConfigError } from '@geoaccount/api';
import { loadLocationConfig } from './location.config';

describe('location config', () => {
  it('has the contract defaults', () => {
    expect(loadLocationConfig({})).toMatchObject({
      PORT: 3002,
      GEOCODER: 'offline',
      COORD_SYSTEM: 'wgs84',
      CACHE_TTL_SECONDS: 604800,
      UPSTREAM_TIMEOUT_MS: 3000,
    });
  });

  it.each([
    ['GEOCODER', 'google'],
    ['COORD_SYSTEM', 'bd09'],
    ['REDIS_URL', 'localhost:6379'],
    ['CACHE_TTL_SECONDS', '0'],
    ['UPSTREAM_TIMEOUT_MS', 'soon'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadLocationConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadLocationConfig({ [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}=`));
  });
});
