import './tracing';
import 'reflect-metadata';
import { installGracefulShutdown } from '@geoaccount/observability';
import { AppRegistry } from '@geoaccount/signing';
import { createAccountApp } from './app';
import { type AccountConfig, loadAccountConfig } from './config/account.config';
import { type DirectoryConfig, loadDirectoryConfig } from './config/directory.config';
import { type EmbeddedDatabase, defaultDataDir, startEmbeddedPostgres } from './database/embedded-postgres';

const EMBEDDED_DATABASE = 'geoaccount';

function say(line: string): void {
  process.stdout.write(`account: ${line}\n`);
}

async function main(): Promise<void> {
  let config: AccountConfig;
  let registry: AppRegistry;
  let directories: DirectoryConfig;
  try {
    config = loadAccountConfig();
    registry = AppRegistry.fromEnv();
    directories = loadDirectoryConfig();
  } catch (err) {
    process.stderr.write(`account: ${(err as Error).message}\n`);
    process.exit(1);
  }

  let embedded: EmbeddedDatabase | undefined;
  if (!config.DATABASE_URL) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.EMBEDDED_PG_DATA_DIR ?? defaultDataDir(),
      port: config.EMBEDDED_PG_PORT,
      database: EMBEDDED_DATABASE,
      log: say,
    });
    config.DATABASE_URL = embedded.url;
  }

  // A signal while starting stops what has started; once listening, the graceful shutdown
  // below takes over.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      try {
        await app?.close();
        await embedded?.stop();
        process.exit(0);
      } catch (err) {
        process.stderr.write(`account: shutdown failed: ${(err as Error).message}\n`);
        process.exit(1);
      }
    })();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  let app: Awaited<ReturnType<typeof createAccountApp>> | undefined;
  try {
    app = await createAccountApp(config, registry, directories);
    await app.listen(config.PORT, config.HOST);
  } catch (err) {
    process.stderr.write(`account: cannot start: ${(err as Error).message}\n`);
    await app?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    process.exit(1);
  }
  // SIGTERM/SIGINT: not ready, drain, stop accepting, finish in-flight requests, close the
  // pool, then stop the embedded database; exit 0 within SHUTDOWN_TIMEOUT_MS.
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  installGracefulShutdown(app, {
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    afterClose: async () => {
      await embedded?.stop();
    },
  });
  say(`listening on http://${config.HOST}:${config.PORT}${embedded ? ' (embedded PostgreSQL)' : ''}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`account: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
