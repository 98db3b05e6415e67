import { ALL_APPS } from '../common/app-scope';
import { Injectable, Logger } from '@nestjs/common';
import { CredentialSecrets } from '../credentials/credential-secrets';
import { CredentialsRepository } from '../credentials/credentials.repository';
import type { CredentialUseDto } from './dto/credential-uses.dto';

/** An active app as location learns it: its active credentials in clear (docs/contract.md §14). */
export interface InternalAppView {
  app_token: string;
  aes_mode: 'gcm' | 'ecb';
  credentials: { credential_id: string; secret: string; aes_key: string; expire_time: string }[];
}

/** Uses more than this far in the future are refused (a wrong clock). */
const FUTURE_SLACK_MS = 5 * 60_000;
const MINUTE_MS = 60_000;

/** The internal API: the apps location serves, and the credential uses it reports. */
@Injectable()
export class InternalService {
  private readonly logger = new Logger(InternalService.name);

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly secrets: CredentialSecrets,
  ) {}

  /** The enabled apps of the control plane with their active credentials; `expire_time` ISO 8601 UTC or `""`. */
  async apps(): Promise<InternalAppView[]> {
    const apps = new Map<string, InternalAppView>();
    for (const row of await this.credentials.active(ALL_APPS)) {
      let keys: { secret: string; aesKey: string };
      try {
        keys = this.secrets.open(row.appToken, row.credentialId, row);
      } catch (err) {
        this.logger.error(`credential ${row.credentialId} of ${row.appToken} does not decrypt (${(err as Error).message}): left out`);
        continue;
      }
      let app = apps.get(row.appToken);
      if (!app) apps.set(row.appToken, (app = { app_token: row.appToken, aes_mode: row.aesMode, credentials: [] }));
      app.credentials.push({
        credential_id: row.credentialId,
        secret: keys.secret,
        aes_key: keys.aesKey,
        expire_time: row.expireTime ? row.expireTime.toISOString() : '',
      });
    }
    return [...apps.values()];
  }

  /** Records reported uses (minute resolution, a later time only); returns how many credentials moved. */
  async recordUses(uses: readonly CredentialUseDto[]): Promise<number> {
    const latest = Date.now() + FUTURE_SLACK_MS;
    const batch = uses
      .map((u) => ({ credentialId: u.credential_id, ms: Date.parse(u.time) }))
      .filter((u) => Number.isFinite(u.ms) && u.ms <= latest)
      .map((u) => ({ credentialId: u.credentialId, time: new Date(u.ms - (u.ms % MINUTE_MS)) }));
    return this.credentials.recordUses(ALL_APPS, batch);
  }
}
