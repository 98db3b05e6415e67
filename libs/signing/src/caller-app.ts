import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { RegisteredApp } from './credentials';

export const CALLER_APP = Symbol('callerApp');
export type SignedRequest = Request & { [CALLER_APP]?: RegisteredApp };

/** The app whose signature the guard verified (route parameter decorator). */
export const CallerApp = createParamDecorator((_: unknown, ctx: ExecutionContext): RegisteredApp => {
  const app = ctx.switchToHttp().getRequest<SignedRequest>()[CALLER_APP];
  if (!app) throw new Error('CallerApp used on a route without a signature guard');
  return app;
});
