import { ConfigError, loadConfig } from '@geoaccount/api';
import { OperationsConfig, httpTimeoutsOf } from './operations.config';

class ServiceConfig extends OperationsConfig {
  PORT = 3000;
}

describe('operations settings', () => {
  it('default to: info logs, no rate limit, 10 s shutdown bound, no drain delay, 10 s for headers, 30 s for a request', () => {
    expect(loadConfig(ServiceConfig, {})).toEqual({
      PORT: 3000,
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: 0,
      SHUTDOWN_TIMEOUT_MS: 10000,
      SHUTDOWN_DRAIN_MS: 0,
      HTTP_HEADERS_TIMEOUT_MS: 10000,
      HTTP_REQUEST_TIMEOUT_MS: 30000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 5000,
    });
    expect(httpTimeoutsOf(loadConfig(ServiceConfig, {}))).toEqual({ headersMs: 10000, requestMs: 30000, keepAliveMs: 5000 });
  });

  it('read the HTTP server timeouts, the request one no shorter than the headers one', () => {
    const config = loadConfig(ServiceConfig, {
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    });
    expect(httpTimeoutsOf(config)).toEqual({ headersMs: 2000, requestMs: 2000, keepAliveMs: 65000 });
    expect(() => loadConfig(ServiceConfig, { HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' })).toThrow(
      'Invalid environment variable HTTP_REQUEST_TIMEOUT_MS="4000": must be at least HTTP_HEADERS_TIMEOUT_MS',
    );
    expect(() => loadConfig(ServiceConfig, { HTTP_REQUEST_TIMEOUT_MS: '5000' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
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
    ['HTTP_HEADERS_TIMEOUT_MS', '0'],
    ['HTTP_REQUEST_TIMEOUT_MS', 'long'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '-1'],
  ])('refuse %s=%s naming it', (name, value) => {
    expect(() => loadConfig(ServiceConfig, { [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig(ServiceConfig, { [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}=`));
  });
});
