import { Controller, Get, type INestApplication, Module, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import type { Response } from 'express';
import request from 'supertest';
import { lbsEnvelope } from '@geoaccount/api';
import { FastPathAdapter, ShutdownState, applyHttpDefaults } from '@geoaccount/http';
import { healthResponse, shutdownIndicator } from './health';

const dependency = { up: true, degraded: false };

@Controller('health')
class ProbeController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get('ready')
  @HealthCheck()
  ready(@Res({ passthrough: true }) res: Response) {
    return healthResponse(res, () =>
      this.health.check([
        shutdownIndicator(this.shutdown, this.indicators),
        () => {
          const s = this.indicators.check('store');
          if (!dependency.up) return s.down({ message: 'unreachable' });
          return dependency.degraded ? s.degraded({ message: 'cache down, answers from upstream' }) : s.up();
        },
      ]),
    );
  }
}

@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [ProbeController], providers: [ShutdownState] })
class ProbeModule {}

describe('readiness answers', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(ProbeModule, new FastPathAdapter(), { logger: false });
    applyHttpDefaults(app, lbsEnvelope, { shutdownHooks: false });
    await app.init();
  });
  afterAll(() => app.close());
  const ready = () => request(app.getHttpServer()).get('/health/ready');

  it('are 200 when every check is up, and when one is degraded', async () => {
    dependency.up = true;
    dependency.degraded = false;
    const ok = await ready();
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'ok', details: { shutdown: { status: 'up' }, store: { status: 'up' } } });
    expect(ok.headers['cache-control']).toContain('no-store');
    dependency.degraded = true;
    const degraded = await ready();
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({
      status: 'degraded',
      details: { store: { status: 'degraded', message: 'cache down, answers from upstream' } },
    });
  });

  it('are 503 with the terminus body (not the API envelope) when a check is down or the service is stopping', async () => {
    dependency.up = false;
    dependency.degraded = false;
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'error', error: { store: { status: 'down', message: 'unreachable' } } });
    dependency.up = true;
    app.get(ShutdownState).begin();
    const stopping = await ready();
    expect(stopping.status).toBe(503);
    expect(stopping.body).toMatchObject({ status: 'error', error: { shutdown: { status: 'down', message: 'shutting down' } } });
  });
});
