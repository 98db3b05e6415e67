import { ConfigError, loadConfig } from '@geoaccount/api';
import { OperationsConfig } from './operations.config';

class ServiceConfig extends OperationsConfig {
  PORT = 3000;
}

describe('operations settings', () => {
  it('default to: info logs, no rate limit, 10 s shutdown bound, no drain delay', () => {
    expect(loadConfig(ServiceConfig, {})).toEqual({
      PORT: 3000,
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: 0,
      SHUTDOWN_TIMEOUT_MS: 10000,
      SHUTDOWN_DRAIN_MS: 0,
    });
  });

  it('are read from the environment of a subclass', () => {
    expect(
      loadConfig(ServiceConfig, {
        RATE_LIMIT_PER_MINUTE: '600',
        SHUTDOWN_TIMEOUT_MS: '25000',
        SHUTDOWN_DRAIN_MS: '5000',
        LOG_LEVEL: 'debug',
      }),
    ).toMatchObject({
      RATE_LIMIT_PER_MINUTE: 600,
      SHUTDOWN_TIMEOUT_MS: 25000,
      SHUTDOWN_DRAIN_MS: 5000,
      LOG_LEVEL: 'debug',
    });
  });

  it.each([
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['RATE_LIMIT_PER_MINUTE', 'lots'],
    ['SHUTDOWN_TIMEOUT_MS', '10'],
    ['SHUTDOWN_DRAIN_MS', '1.5'],
    ['LOG_LEVEL', 'verbose'],
  ])('refuse %s=%s naming it', (name, value) => {
    expect(() => loadConfig(ServiceConfig, { [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig(ServiceConfig, { [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}=`));
  });
});
