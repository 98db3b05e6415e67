import type { TestAccountClient } from '@geoaccount/client/internal';
import { APP_A, APP_B, accountClient } from './apps';
import { type TestDatabase, createTestDatabase } from './database';
import { ServiceProcess } from './service-process';

export interface AccountFixture {
  db: TestDatabase;
  svc: ServiceProcess;
  /** Signed clients of apps A and B. */
  a: TestAccountClient;
  b: TestAccountClient;
  /** Stops the service (SIGTERM) and drops the database. */
  close(): Promise<void>;
}

/** The compiled account service on a fresh database of the machine's PostgreSQL. */
export async function accountOnFreshDatabase(name: string, env: Record<string, string | undefined> = {}): Promise<AccountFixture> {
  const db = await createTestDatabase();
  try {
    const svc = await ServiceProcess.start('account', { name, env: { DATABASE_URL: db.url, ...env } });
    return {
      db,
      svc,
      a: accountClient(svc.baseUrl, APP_A),
      b: accountClient(svc.baseUrl, APP_B),
      async close() {
        await svc.stop();
        await db.drop();
      },
    };
  } catch (err) {
    await db.drop().catch(() => undefined);
    throw err;
  }
}
