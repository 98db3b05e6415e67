import './tracing';
import 'reflect-metadata';
import { installGracefulShutdown } from '@geoaccount/http';
import { flushTracing } from '@geoaccount/observability';
import { AppRegistry } from '@geoaccount/signing';
import { createAccountApp } from './app';
import { type AccountConfig, loadAccountConfig } from './config/account.config';
import { type DirectoryConfig, loadDirectoryConfig } from './config/directory.config';

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

  // The embedded PostgreSQL of `pnpm start` is a development tool (scripts/start.mjs starts it
  // and passes its DATABASE_URL): the service itself, as in an image, needs a database URL.
  if (!config.DATABASE_URL) {
    process.stderr.write('account: DATABASE_URL is required (`pnpm start` runs an embedded PostgreSQL when it is unset)\n');
    process.exit(1);
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
    process.exit(1);
  }
  // SIGTERM/SIGINT: not ready, drain, stop accepting, finish in-flight requests, close the
  // pool; exit 0 within SHUTDOWN_TIMEOUT_MS.
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  installGracefulShutdown(app, {
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    flush: flushTracing,
  });
  say(`listening on http://${config.HOST}:${config.PORT}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`account: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
