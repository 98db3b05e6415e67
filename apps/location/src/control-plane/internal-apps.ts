import { APP_TOKEN_PATTERN, type ManagedApp } from '@geoaccount/signing';

/** What `GET /internal/v1/apps` answered, checked: the apps to accept and what was left out. */
export interface InternalAppsAnswer {
  apps: ManagedApp[];
  /** One line per app or credential left out, naming it (never a secret). */
  skipped: string[];
}

/** The answer as a whole is not the documented one (not an object, no `app_list`). */
export class InternalAppsFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InternalAppsFormatError';
  }
}

const MAX_CREDENTIAL_ID = 64;
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?$/;

/**
 * An `expire_time` as epoch milliseconds: `""` (or absent) is no expiry; an ISO 8601 time
 * with its offset, or `YYYY-MM-DD HH:MM:SS[.mmm]` in UTC. NaN when it is neither.
 */
export function parseExpireTime(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return Number.NaN;
  const local = LOCAL_TIME.exec(value);
  if (local) {
    const [, y, mo, d, h, mi, s, frac] = local;
    const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, frac ? Math.round(Number(frac) * 1000) : 0);
    const back = new Date(ms);
    // 2025-02-30 is not rolled over to March.
    return back.getUTCDate() === +d && back.getUTCMonth() === +mo - 1 ? ms : Number.NaN;
  }
  if (!/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(value)) return Number.NaN;
  return Date.parse(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the answer of `GET /internal/v1/apps` (docs/contract.md §14):
 * `{"app_list":[{"app_token","aes_mode","credentials":[{"credential_id","secret","aes_key","expire_time"}]}]}`.
 * A malformed answer as a whole throws (the last good list is kept); a malformed app or
 * credential is left out and named in `skipped`, so that one bad entry does not stop the others.
 */
export function parseInternalApps(body: unknown): InternalAppsAnswer {
  if (!isObject(body)) throw new InternalAppsFormatError('expected a JSON object');
  const list = body.app_list;
  if (!Array.isArray(list)) throw new InternalAppsFormatError('expected an app_list array');
  const apps: ManagedApp[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  list.forEach((item: unknown, i) => {
    if (!isObject(item) || typeof item.app_token !== 'string' || !APP_TOKEN_PATTERN.test(item.app_token)) {
      skipped.push(`app_list[${i}]: no valid app_token`);
      return;
    }
    const appToken = item.app_token;
    if (seen.has(appToken)) {
      skipped.push(`${appToken}: listed twice`);
      return;
    }
    seen.add(appToken);
    const aesMode = item.aes_mode ?? 'gcm';
    if (aesMode !== 'gcm' && aesMode !== 'ecb') {
      skipped.push(`${appToken}: aes_mode is not gcm or ecb`);
      return;
    }
    if (!Array.isArray(item.credentials)) {
      skipped.push(`${appToken}: no credentials array`);
      return;
    }
    const credentials: ManagedApp['credentials'] = [];
    item.credentials.forEach((c: unknown, j) => {
      const at = `${appToken} credentials[${j}]`;
      if (!isObject(c) || typeof c.credential_id !== 'string' || c.credential_id === '' || c.credential_id.length > MAX_CREDENTIAL_ID) {
        skipped.push(`${at}: no valid credential_id`);
        return;
      }
      if (typeof c.secret !== 'string' || c.secret.length < 16) {
        skipped.push(`${at} ${c.credential_id}: secret missing or shorter than 16 characters`);
        return;
      }
      if (typeof c.aes_key !== 'string' || c.aes_key === '') {
        skipped.push(`${at} ${c.credential_id}: aes_key missing`);
        return;
      }
      const expiresAt = parseExpireTime(c.expire_time);
      if (Number.isNaN(expiresAt)) {
        skipped.push(`${at} ${c.credential_id}: expire_time is not a time`);
        return;
      }
      credentials.push({ credentialId: c.credential_id, secret: c.secret, aesKey: c.aes_key, expiresAt });
    });
    if (credentials.length > 0) apps.push({ appToken, aesMode, credentials });
  });
  return { apps, skipped };
}
