import { type DynamicModule, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, type AppLogger } from '@geoaccount/observability';
import { APP_REGISTRY, type AppRegistry } from '@geoaccount/signing';
import { LocationConfig } from '../config/location.config';
import { AppsPoller } from './apps-poller';
import { CredentialUseRecorder } from './credential-use-recorder';

/** Starts the apps' poller and the uses' reports with the application, stops them with it. */
@Injectable()
class ControlPlaneLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly poller: AppsPoller,
    private readonly uses: CredentialUseRecorder,
  ) {}

  /** The first read happens before the service listens (bounded by `APPS_TIMEOUT_MS`). */
  async onApplicationBootstrap(): Promise<void> {
    await this.poller.start();
    this.uses.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.poller.stop();
    await this.uses.stop();
  }
}

/**
 * The apps learnt from the account service (docs/contract.md §14), when `APPS_URL` is set:
 * the registry's control-plane apps kept fresh, and the credential uses reported.
 */
@Module({})
export class ControlPlaneModule {
  static forRoot(config: LocationConfig): DynamicModule {
    if (!config.APPS_URL || !config.INTERNAL_TOKEN) return { module: ControlPlaneModule };
    const api = { baseUrl: config.APPS_URL, token: config.INTERNAL_TOKEN, timeoutMs: config.APPS_TIMEOUT_MS };
    const child = (logger: AppLogger) => logger.child({ context: 'ControlPlane' });
    return {
      module: ControlPlaneModule,
      providers: [
        {
          provide: AppsPoller,
          inject: [APP_REGISTRY, APP_LOGGER],
          useFactory: (registry: AppRegistry, logger: AppLogger) =>
            new AppsPoller({ ...api, intervalMs: config.APPS_POLL_SECONDS * 1000 }, registry, child(logger)),
        },
        {
          provide: CredentialUseRecorder,
          inject: [APP_REGISTRY, APP_LOGGER],
          useFactory: (registry: AppRegistry, logger: AppLogger) =>
            new CredentialUseRecorder(registry.uses, { ...api, flushMs: config.CREDENTIAL_USE_FLUSH_SECONDS * 1000 }, child(logger)),
        },
        ControlPlaneLifecycle,
      ],
      exports: [CredentialUseRecorder, AppsPoller],
    };
  }
}
