// A hello-world NestJS application on Express with a chosen subset of the services' HTTP
// stack (BENCH_LAYERS, comma-separated), built from the project's own compiled libraries, to
// find what each layer costs per request. Layers:
//   defaults   applyHttpDefaults (libs/http): exception filter, validation pipe (with a one-field DTO),
//              query parsed once, JSON answers written by the fast path's adapter
//   observer   ObservabilityModule, Nest's logger on pino and the request observer (request id,
//              access line, metrics, draining)
//   headers    the security headers of an API answer
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appImport, appRequire, root } from '../lib/common.mjs';

const require = createRequire(import.meta.url);
appRequire('account')('reflect-metadata');
const layers = new Set((process.env.BENCH_LAYERS ?? '').split(',').filter(Boolean));
const { Controller, Get, Module, Query } = await appImport('account', '@nestjs/common');
const { NestFactory } = await appImport('account', '@nestjs/core');
const { ExpressAdapter } = await appImport('account', '@nestjs/platform-express');
const obs = require(join(root, 'libs/observability/dist/index.js'));
const api = require(join(root, 'libs/api/dist/index.js'));
const http = require(join(root, 'libs/http/dist/index.js'));
const { IsOptional, IsString, MaxLength } = appRequire('account')('class-validator');

class HelloQuery {}
IsOptional()(HelloQuery.prototype, 'name');
IsString()(HelloQuery.prototype, 'name');
MaxLength(20)(HelloQuery.prototype, 'name');
Reflect.defineMetadata('design:type', String, HelloQuery.prototype, 'name');

class HelloController {
  hello() {
    return { message: 'hello' };
  }
}
const descriptor = Object.getOwnPropertyDescriptor(HelloController.prototype, 'hello');
Reflect.defineMetadata('design:paramtypes', [HelloQuery], HelloController.prototype, 'hello');
Query()(HelloController.prototype, 'hello', 0);
Get('hello')(HelloController.prototype, 'hello', descriptor);
Controller()(HelloController);

class StackModule {}
const imports = layers.has('observer')
  ? [obs.ObservabilityModule.forRoot({ service: 'stack', logLevel: process.env.LOG_LEVEL ?? 'warn', defaultMetrics: true })]
  : [];
Module({ imports, controllers: [HelloController] })(StackModule);

const adapter = layers.has('defaults') ? new http.FastPathAdapter() : new ExpressAdapter();
const app = await NestFactory.create(StackModule, adapter, { logger: ['error', 'warn'] });
if (layers.has('defaults')) http.applyHttpDefaults(app, api.accountEnvelope, { shutdownHooks: false });
if (layers.has('observer')) obs.useRequestObserver(app);
if (layers.has('headers')) app.use(http.securityHeaders());
await app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
