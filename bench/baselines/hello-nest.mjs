// Framework floor, top: hello-world JSON from a minimal NestJS application on Express, with
// the same @nestjs/* packages the services use (resolved from the account app).
import { appImport, appRequire } from '../lib/common.mjs';

appRequire('account')('reflect-metadata');
const { Controller, Get, Module } = await appImport('account', '@nestjs/common');
const { NestFactory } = await appImport('account', '@nestjs/core');
const { ExpressAdapter } = await appImport('account', '@nestjs/platform-express');

class HelloController {
  hello() {
    return { message: 'hello' };
  }
  live() {
    return { status: 'ok' };
  }
}
// What the TypeScript decorators `@Controller()`, `@Get('hello')`, `@Get('health/live')` do.
const method = (name, decorator) =>
  decorator(HelloController.prototype, name, Object.getOwnPropertyDescriptor(HelloController.prototype, name));
method('hello', Get('hello'));
method('live', Get('health/live'));
Controller()(HelloController);

class HelloModule {}
Module({ controllers: [HelloController] })(HelloModule);

const app = await NestFactory.create(HelloModule, new ExpressAdapter(), { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
