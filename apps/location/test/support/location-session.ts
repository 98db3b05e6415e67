import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { TestLbsClient } from '@geoaccount/client/internal';
import { fetchVia } from '@geoaccount/testing';
import { AppRegistry, DEMO_APP } from '@geoaccount/signing';
import { Redis } from 'ioredis';
import { createLocationApp } from '../../src/app';
import { loadLocationConfig } from '../../src/config/location.config';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379/0';

/** A key prefix of its own for one test run. */
export function runPrefix(label: string): string {
  return `lbs-test:${label}:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under a prefix. */
export async function deletePrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** Keys under a prefix. */
export async function keysUnder(url: string, prefix: string): Promise<string[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  } finally {
    redis.disconnect();
  }
}

/** The JSON log lines of an app, kept for assertions. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        this.lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        this.lines.push({ msg: line });
      }
    }
    callback();
  }

  /** Lines of a logger context (e.g. `Accounting`, `Cache`). */
  of(context: string): Record<string, unknown>[] {
    return this.lines.filter((l) => l.context === context);
  }
}

/** A running location service on 127.0.0.1 (port 0) with its real wiring, and a signed client. */
export interface LocationSession {
  app: INestApplication;
  url: string;
  client: TestLbsClient;
  /** A client that talks to the service directly, never through Prism (for suites bound by time, e.g. a rate budget). */
  direct: TestLbsClient;
  logs: LogCapture;
  close(): Promise<void>;
}

/**
 * nestjs-pino keeps its root logger in module state: every app booted in one test file
 * writes to the stream of the first. So the sessions of a file share one capture.
 */
const logs = new LogCapture();

/** Boots the service with the environment given (as the variables of docs/contract.md §1). */
export async function startLocation(env: Record<string, string | undefined>): Promise<LocationSession> {
  const config = loadLocationConfig({ LOG_LEVEL: 'info', ...env });
  const app = await createLocationApp(config, new AppRegistry([DEMO_APP]), { logStream: logs });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const client = new TestLbsClient({
    retries: 0,
    baseUrl: url,
    appToken: DEMO_APP.appToken,
    secret: DEMO_APP.secret,
    fetch: fetchVia(url),
  });
  const direct = new TestLbsClient({ retries: 0, baseUrl: url, appToken: DEMO_APP.appToken, secret: DEMO_APP.secret });
  return { app, url, client, direct, logs, close: () => app.close() };
}

/**
 * A service for the enclosing `describe` on the shared Redis, under a key prefix of its own
 * (`label`): started before its tests with rate limits off and a generous Redis command timeout
 * (a slow shared Redis must not turn writes into misses), plus `env`; closed, and its keys
 * deleted, after them. Read the running service as `.s` inside the tests.
 */
export function sessionOnSharedRedis(
  label: string,
  env: Record<string, string> = {},
): { readonly prefix: string; readonly s: LocationSession } {
  const prefix = runPrefix(label);
  let session: LocationSession | undefined;
  beforeAll(async () => {
    session = await startLocation({
      REDIS_URL,
      CACHE_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: '0',
      REDIS_COMMAND_TIMEOUT_MS: '5000',
      ...env,
    });
  });
  afterAll(async () => {
    await session?.close();
    await deletePrefix(REDIS_URL, prefix);
    // ioredis' disconnect keeps a 2 s timer; let it run out so that jest exits cleanly
    await new Promise((r) => setTimeout(r, 2100));
  });
  return {
    prefix,
    get s(): LocationSession {
      if (!session) throw new Error(`the ${label} session has not started`);
      return session;
    },
  };
}
