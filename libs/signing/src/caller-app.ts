import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { RegisteredApp } from './credentials';

export const CALLER_APP = Symbol('callerApp');
export type SignedRequest = Request & { [CALLER_APP]?: RegisteredApp };

/** What `@CallerApp()` gives a handler (its factory: a direct route recognises the decorator by it). */
export function callerAppOf(_: unknown, ctx: ExecutionContext): RegisteredApp {
  const app = ctx.switchToHttp().getRequest<SignedRequest>()[CALLER_APP];
  if (!app) throw new Error('CallerApp used on a route without a signature guard');
  return app;
}

/** The app whose signature the guard verified (route parameter decorator). */
export const CallerApp = createParamDecorator(callerAppOf);

/**
 * The calling app of a request, the key of the services' rate limit: the app whose signature
 * was verified, else the `app_token` (account) or `userToken` (location) it names. Undefined
 * for unsigned routes (health, metrics, docs), which are never limited.
 */
export function callerKeyOf(req: Request): string | undefined {
  const verified = (req as SignedRequest)[CALLER_APP];
  if (verified) return verified.appToken;
  const query = (req.query ?? {}) as Record<string, unknown>;
  const body = (req.body ?? {}) as Record<string, unknown>;
  for (const value of [query.app_token, body.app_token, req.headers?.['x-app-token'], query.userToken]) {
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
