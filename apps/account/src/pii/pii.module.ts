import { type DynamicModule, Global, Inject, Logger, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountConfig } from '../config/account.config';
import { JobLeader } from '../database/job-leader';
import { PiiCipher } from './pii-cipher';
import { PiiKeyCheck } from './pii-key-check';
import { loadPiiKeys } from './pii-keys';
import { rewrapPii } from './pii-rewrap';

/**
 * Personal data at rest (docs/contract.md §11): the cipher of `cert_id` / `user_mobile` under the key
 * ring; at start, rows still plain (written before encryption) are encrypted in the background.
 */
/** The development-key warning, logged once the service's logger is in place (`""` when keys are set). */
const PII_KEY_WARNING = 'PII_KEY_WARNING';

@Global()
@Module({})
export class PiiModule implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Pii');

  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: PiiCipher,
    private readonly keyCheck: PiiKeyCheck,
    @Inject(PII_KEY_WARNING) private readonly warning: string,
    private readonly leader: JobLeader,
  ) {}

  static forRoot(config: AccountConfig): DynamicModule {
    const ring = loadPiiKeys(config);
    return {
      module: PiiModule,
      providers: [
        { provide: PiiCipher, useValue: new PiiCipher(ring.keys) },
        { provide: PII_KEY_WARNING, useValue: ring.warning ?? '' },
        PiiKeyCheck,
      ],
      exports: [PiiCipher, PiiKeyCheck],
    };
  }

  onModuleInit(): void {
    // Plain values only (not a key rotation, which is `rotate-pii`'s job): a short scan when done,
    // by the instance that holds the background jobs' lease, in the background.
    this.leader.onAcquired('plain personal data', async () => {
      void this.encryptPlainRows().catch((err: unknown) => this.logger.error(err));
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.warning) this.logger.warn(this.warning);
    // Key ids in use against the ring, before the first request (index probes, no table scan):
    // a missing one keeps the instance out of readiness. A failure here is retried by readiness.
    await this.keyCheck.check().catch((err: unknown) => this.logger.error(`cannot list the key ids in use: ${String(err)}`));
  }

  private async encryptPlainRows(): Promise<void> {
    const plainLeft = (await this.dataSource.query(
      `SELECT 1 FROM "users" WHERE ("cert_id" <> '' AND "cert_id" NOT LIKE 'v1:%') OR ("user_mobile" <> '' AND "user_mobile" NOT LIKE 'v1:%') LIMIT 1`,
    )) as unknown[];
    if (plainLeft.length === 0) return;
    const counts = await rewrapPii(this.dataSource, this.cipher, { plainOnly: true });
    this.logger.log(`personal data encrypted: ${counts.rewritten} rows (${counts.skipped} changed meanwhile)`);
  }
}
