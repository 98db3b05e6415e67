import { ConfigError } from '@geoaccount/api';
import { parseClusterNodes } from '../cache/redis-lookup-cache';
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
    ['AMAP_BASE_URL', 'restapi.amap.com'],
    ['CELL_SOURCE', 'unwired'],
    ['CELL_TOWERS_MCC', '460;454'],
    ['CACHE_KEY_PREFIX', 'with space'],
    ['UPSTREAM_RETRIES', '-1'],
    ['REDIS_CLUSTER_NODES', 'redis://127.0.0.1:7000'],
    ['REDIS_CLUSTER_NODES', '127.0.0.1:7000,127.0.0.1'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadLocationConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadLocationConfig({ [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}=`));
  });

  it('requires INTERNAL_TOKEN with APPS_URL, and never repeats a token in its message', () => {
    expect(() => loadLocationConfig({ APPS_URL: 'http://account:3001' })).toThrow('Invalid environment variable INTERNAL_TOKEN: required when APPS_URL is set');
    expect(() => loadLocationConfig({ APPS_URL: 'http://account:3001', INTERNAL_TOKEN: 'too-short-token' })).toThrow(
      'Invalid environment variable INTERNAL_TOKEN: expected at least 32 characters',
    );
    expect(() => loadLocationConfig({ APPS_URL: 'account:3001', INTERNAL_TOKEN: 'x'.repeat(32) })).toThrow(/Invalid environment variable APPS_URL=/);
    expect(loadLocationConfig({ APPS_URL: 'http://account:3001', INTERNAL_TOKEN: 'x'.repeat(32) })).toMatchObject({
      APPS_URL: 'http://account:3001',
      APPS_POLL_SECONDS: 5,
      APPS_TIMEOUT_MS: 3000,
      CREDENTIAL_USE_FLUSH_SECONDS: 60,
    });
    for (const [name, value] of [
      ['APPS_POLL_SECONDS', '11'],
      ['APPS_POLL_SECONDS', '0'],
      ['APPS_TIMEOUT_MS', '5000'],
      ['CREDENTIAL_USE_FLUSH_SECONDS', '0'],
    ]) {
      expect(() => loadLocationConfig({ [name]: value })).toThrow(`Invalid environment variable ${name}=`);
    }
  });

  it('requires the key of the upstream chosen', () => {
    expect(() => loadLocationConfig({ GEOCODER: 'amap' })).toThrow('Invalid environment variable AMAP_KEY: required when GEOCODER=amap');
    expect(loadLocationConfig({ GEOCODER: 'amap', AMAP_KEY: 'k', AMAP_BASE_URL: 'http://127.0.0.1:8080' })).toMatchObject({
      GEOCODER: 'amap',
      AMAP_KEY: 'k',
    });
    expect(() => loadLocationConfig({ CELL_SOURCE: 'opencellid' })).toThrow(
      'Invalid environment variable OPENCELLID_KEY: required when CELL_SOURCE=opencellid',
    );
  });

  it('takes Redis Cluster seed nodes', () => {
    expect(loadLocationConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis-1.internal:7001' })).toMatchObject({
      REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis-1.internal:7001',
    });
    expect(parseClusterNodes('10.0.0.1:7000,redis-1.internal:7001')).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-1.internal', port: 7001 },
    ]);
  });

  it('has the service defaults for what the contract leaves open', () => {
    expect(loadLocationConfig({})).toMatchObject({
      CACHE_KEY_PREFIX: 'lbs:',
      CELL_SOURCE: 'offline',
      AMAP_BASE_URL: 'https://restapi.amap.com',
      NOMINATIM_BASE_URL: 'https://nominatim.openstreetmap.org',
      NOMINATIM_MIN_INTERVAL_MS: 1000,
      UPSTREAM_RETRIES: 2,
      REDIS_COMMAND_TIMEOUT_MS: 250,
    });
  });

  it('limits each app to 1200 requests a minute unless told otherwise (0: off)', () => {
    expect(loadLocationConfig({}).RATE_LIMIT_PER_MINUTE).toBe(1200);
    expect(loadLocationConfig({ RATE_LIMIT_PER_MINUTE: '0' }).RATE_LIMIT_PER_MINUTE).toBe(0);
    expect(loadLocationConfig({ RATE_LIMIT_PER_MINUTE: '60' }).RATE_LIMIT_PER_MINUTE).toBe(60);
    expect(() => loadLocationConfig({ RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
  });
});
