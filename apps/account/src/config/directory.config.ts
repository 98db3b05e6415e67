import { readFileSync } from 'node:fs';
import { ConfigError } from '@geoaccount/api';

/** The directory that checks an app's domain users (docs/contract.md §9). */
export interface DirectorySettings {
  /** `ldap://` or `ldaps://` urls, tried in order. */
  urls: string[];
  bindDn: string;
  /** The service account's password: a secret, never logged. */
  bindPassword: string;
  userBaseDn: string;
  /** Filter template; `{login}` becomes the RFC 4515-escaped login id. */
  userFilter: string;
  startTls: boolean;
  /** PEM bundle that verifies the directory's certificate; unset: the system CAs. */
  ca?: string;
  caFile?: string;
  /** Total time of one check: connect, search and bind. */
  timeoutMs: number;
}

/** The directories by app token, and the `LDAP_*` one serving every app without its own. */
export interface DirectoryConfig {
  byApp: ReadonlyMap<string, DirectorySettings>;
  fallback?: DirectorySettings;
}

export const DEFAULT_USER_FILTER = '(uid={login})';
export const DEFAULT_DIRECTORY_TIMEOUT_MS = 3000;

const URL_PATTERN = /^ldaps?:\/\/[^\s/?#]+\/?$/i;

type Raw = Record<string, unknown>;

function readCa(file: string, name: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${name}: cannot read ${file} (${(err as Error).message})`);
  }
}

/**
 * One directory from its fields (`names` maps each field to the name given in errors: the
 * JSON path or the variable); `undefined` without a url.
 */
function settingsOf(raw: Raw, names: Record<string, string>): DirectorySettings | undefined {
  const name = (field: string) => names[field] ?? field;
  const err = (field: string, what: string) => new ConfigError(`${name(field)}: ${what}`);
  const urlText = raw.url;
  if (urlText === undefined || urlText === null || urlText === '') return undefined;
  if (typeof urlText !== 'string') throw err('url', 'expected a string');
  const urls = urlText.trim().split(/\s+/);
  for (const url of urls)
    if (!URL_PATTERN.test(url)) throw err('url', `expected ldap://host:port or ldaps://host:port, got ${JSON.stringify(url)}`);
  const req = (field: string) => {
    const value = raw[field];
    if (typeof value !== 'string' || value.trim() === '') throw err(field, 'required with a directory url');
    return value;
  };
  const opt = (field: string) => {
    const value = raw[field];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw err(field, 'expected a string');
    return value;
  };
  const userFilter = opt('userFilter') ?? DEFAULT_USER_FILTER;
  if (!userFilter.includes('{login}')) throw err('userFilter', 'expected a filter containing {login}');
  if (!/^\(.*\)$/s.test(userFilter.trim())) throw err('userFilter', 'expected a filter in parentheses, e.g. (uid={login})');
  let startTls = false;
  if (raw.startTls !== undefined) {
    if (typeof raw.startTls !== 'boolean') throw err('startTls', 'expected true or false');
    startTls = raw.startTls;
  }
  if (startTls && urls.some((u) => u.toLowerCase().startsWith('ldaps:')))
    throw err('startTls', 'StartTLS is for ldap:// urls (ldaps:// is TLS already)');
  let timeoutMs = DEFAULT_DIRECTORY_TIMEOUT_MS;
  if (raw.timeoutMs !== undefined) {
    const t = raw.timeoutMs;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 100 || t > 60_000)
      throw err('timeoutMs', 'expected milliseconds from 100 to 60000');
    timeoutMs = t;
  }
  const caFile = opt('caFile');
  return {
    urls,
    bindDn: req('bindDn'),
    bindPassword: req('bindPassword'),
    userBaseDn: req('userBaseDn'),
    userFilter,
    startTls,
    caFile,
    ca: caFile === undefined ? undefined : readCa(caFile, name('caFile')),
    timeoutMs,
  };
}

function parseBoolean(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new ConfigError(`${name}: expected true or false`);
}

function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new ConfigError('LDAP_TIMEOUT_MS: expected milliseconds from 100 to 60000');
  return Number(value);
}

/** The `LDAP_*` directory (docs/contract.md §9). */
function fromEnvironment(env: NodeJS.ProcessEnv): DirectorySettings | undefined {
  let bindPassword = env.LDAP_BIND_PASSWORD;
  if (env.LDAP_BIND_PASSWORD_FILE) {
    if (bindPassword) throw new ConfigError('LDAP_BIND_PASSWORD and LDAP_BIND_PASSWORD_FILE are both set; use one');
    try {
      bindPassword = readFileSync(env.LDAP_BIND_PASSWORD_FILE, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new ConfigError(`LDAP_BIND_PASSWORD_FILE: cannot read ${env.LDAP_BIND_PASSWORD_FILE} (${(err as Error).message})`);
    }
  }
  const raw: Raw = {
    url: env.LDAP_URL,
    bindDn: env.LDAP_BIND_DN,
    bindPassword,
    userBaseDn: env.LDAP_USER_BASE_DN,
    userFilter: env.LDAP_USER_FILTER,
    startTls: parseBoolean(env.LDAP_START_TLS, 'LDAP_START_TLS'),
    caFile: env.LDAP_CA_FILE,
    timeoutMs: parseTimeout(env.LDAP_TIMEOUT_MS),
  };
  return settingsOf(raw, {
    url: 'LDAP_URL',
    bindDn: 'LDAP_BIND_DN',
    bindPassword: 'LDAP_BIND_PASSWORD',
    userBaseDn: 'LDAP_USER_BASE_DN',
    userFilter: 'LDAP_USER_FILTER',
    startTls: 'LDAP_START_TLS',
    caFile: 'LDAP_CA_FILE',
    timeoutMs: 'LDAP_TIMEOUT_MS',
  });
}

/** The `directory` objects of the `APP_CREDENTIALS` entries (the rest of an entry is the signing's). */
function fromCredentials(env: NodeJS.ProcessEnv): Map<string, DirectorySettings> {
  const byApp = new Map<string, DirectorySettings>();
  let textValue = env.APP_CREDENTIALS;
  let where = 'APP_CREDENTIALS';
  if (env.APP_CREDENTIALS_FILE) {
    where = 'APP_CREDENTIALS_FILE';
    try {
      textValue = readFileSync(env.APP_CREDENTIALS_FILE, 'utf8');
    } catch {
      return byApp; // reported by the credentials' own loading
    }
  }
  if (!textValue?.trim()) return byApp;
  let parsed: unknown;
  try {
    parsed = JSON.parse(textValue);
  } catch {
    return byApp; // reported by the credentials' own loading
  }
  if (!Array.isArray(parsed)) return byApp;
  parsed.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) return;
    const { appToken, directory } = item as Raw;
    if (directory === undefined) return;
    const at = `${where}[${i}].directory`;
    if (typeof directory !== 'object' || directory === null || Array.isArray(directory)) throw new ConfigError(`${at}: expected an object`);
    const fields = ['url', 'bindDn', 'bindPassword', 'userBaseDn', 'userFilter', 'startTls', 'caFile', 'timeoutMs'];
    const unknown = Object.keys(directory).filter((k) => !fields.includes(k));
    if (unknown.length > 0) throw new ConfigError(`${at}: unknown field ${unknown.join(', ')}`);
    const settings = settingsOf(directory as Raw, Object.fromEntries(fields.map((f) => [f, `${at}.${f}`])));
    if (!settings) throw new ConfigError(`${at}.url: required in a directory object`);
    if (typeof appToken === 'string') byApp.set(appToken, settings);
  });
  return byApp;
}

/** Reads the directories of docs/contract.md §9; throws a `ConfigError` naming the bad field. */
export function loadDirectoryConfig(env: NodeJS.ProcessEnv = process.env): DirectoryConfig {
  return { byApp: fromCredentials(env), fallback: fromEnvironment(env) };
}
