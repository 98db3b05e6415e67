import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { BlockList } from 'node:net';
import { clientIpOf, parseTrustedProxies } from '@geoaccount/http';
import { READ_METHODS } from '@geoaccount/api';
import { currentRequestId } from '@geoaccount/observability';
import { AccountConfig } from '../config/account.config';

/** Who made a change, as an audit event records it (docs/contract.md §10). */
export interface AuditOrigin {
  /** The request's optional `user` header, `""` when absent; signed (docs/contract.md §2: the signature guard refuses one it does not cover). */
  readonly operator: string;
  /** The request's `X-Request-Id` (the one echoed in the answer). */
  readonly requestId: string;
  /** The client's address: the peer's, or from `X-Forwarded-For` through `TRUSTED_PROXIES` hops only. */
  readonly clientIp: string;
}

const OPERATOR_MAX = 256;
const origins = new AsyncLocalStorage<AuditOrigin>();

/** The origin of the request being handled; empty fields outside a request (a job, a test). */
export function currentAuditOrigin(): AuditOrigin {
  return origins.getStore() ?? { operator: '', requestId: '', clientIp: '' };
}

/** Runs the rest of the request with its audit origin at hand, across `await`s. */
@Injectable()
export class AuditOriginMiddleware implements NestMiddleware {
  private readonly proxies: BlockList;

  constructor(config: AccountConfig) {
    this.proxies = parseTrustedProxies(config.TRUSTED_PROXIES);
  }

  use(req: Request, _res: Response, next: NextFunction): void {
    // Reads change nothing, so they write no audit event: no origin to keep (docs/performance.md).
    if (READ_METHODS.has(req.method)) {
      next();
      return;
    }
    const user = req.headers.user;
    const operator = (Array.isArray(user) ? user.join(',') : (user ?? '')).slice(0, OPERATOR_MAX);
    const requestId = currentRequestId() ?? '';
    const clientIp = clientIpOf(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], this.proxies);
    origins.run({ operator, requestId, clientIp }, next);
  }
}
