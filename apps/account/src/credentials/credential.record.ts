import type { AppToken } from '../common/app-scope';
/** A row of `app_credentials`, its secret and AES key still encrypted (docs/contract.md §14). */
export interface CredentialRecord {
  appToken: AppToken;
  credentialId: string;
  /** `v1:<key id>:…` under the `PII_KEYS` ring. */
  secret: string;
  aesKey: string;
  keyId: string;
  createTime: Date;
  expireTime: Date | null;
  revokeTime: Date | null;
  lastUsedTime: Date | null;
}

export type CredentialState = 'active' | 'revoked' | 'expired';

/** A credential's state at `now`: revoked, expired (its `expire_time` passed), else active. */
export function credentialState(c: Pick<CredentialRecord, 'expireTime' | 'revokeTime'>, now = Date.now()): CredentialState {
  if (c.revokeTime) return 'revoked';
  if (c.expireTime && c.expireTime.getTime() <= now) return 'expired';
  return 'active';
}
