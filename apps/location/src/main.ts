import './tracing';
import 'reflect-metadata';
import { installGracefulShutdown } from '@geoaccount/http';
import { flushTracing } from '@geoaccount/observability';
import { AppRegistry } from '@geoaccount/signing';
import { createLocationApp } from './app';
import { loadLocationConfig } from './config/location.config';

async function main(): Promise<void> {
  let config;
  let registry;
  try {
    config = loadLocationConfig();
    // With APPS_URL the apps come from the account service; APP_CREDENTIALS may then be unset (docs/contract.md §1).
    registry = AppRegistry.fromEnv();
  } catch (err) {
    process.stderr.write(`location: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const app = await createLocationApp(config, registry);
  // SIGTERM/SIGINT: not ready, drain, stop accepting, finish in-flight requests, close Redis
  // and the upstream clients; exit 0 within SHUTDOWN_TIMEOUT_MS.
  installGracefulShutdown(app, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, drainMs: config.SHUTDOWN_DRAIN_MS, flush: flushTracing });
  await app.listen(config.PORT, config.HOST);
  process.stdout.write(
    `location listening on http://${config.HOST}:${config.PORT} (geocoder ${config.GEOCODER}, cells ${config.CELL_SOURCE}, ` +
      `cache ${config.REDIS_CLUSTER_NODES ? 'redis cluster' : config.REDIS_URL ? 'redis' : 'in-process'}, coordinates ${config.COORD_SYSTEM}, ` +
      `apps ${config.APPS_URL ? `from ${config.APPS_URL} and ${registry.configuredApps().length} configured` : `${registry.configuredApps().length} configured`})\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`location: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
