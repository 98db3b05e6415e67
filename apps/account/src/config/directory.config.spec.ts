import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DIRECTORY_TIMEOUT_MS, loadDirectoryConfig } from './directory.config';

const APP = { appToken: 'app-0123abcd', secret: 'a-secret-of-16-chars', aesKey: 'k' };
const LDAP_ENV = {
  LDAP_URL: 'ldap://dc1.example.test:389 ldap://dc2.example.test:389',
  LDAP_BIND_DN: 'cn=svc,dc=example,dc=test',
  LDAP_BIND_PASSWORD: 'svc-secret',
  LDAP_USER_BASE_DN: 'ou=people,dc=example,dc=test',
};

describe('loadDirectoryConfig (docs/contract.md §9)', () => {
  it('has no directory when nothing is set (pnpm start stays directory-free)', () => {
    expect(loadDirectoryConfig({})).toEqual({ byApp: new Map(), fallback: undefined });
  });

  it('reads the LDAP_* directory with its defaults: several urls, (uid={login}), no StartTLS, 3000 ms', () => {
    expect(loadDirectoryConfig(LDAP_ENV).fallback).toEqual({
      urls: ['ldap://dc1.example.test:389', 'ldap://dc2.example.test:389'],
      bindDn: LDAP_ENV.LDAP_BIND_DN,
      bindPassword: 'svc-secret',
      userBaseDn: LDAP_ENV.LDAP_USER_BASE_DN,
      userFilter: '(uid={login})',
      startTls: false,
      caFile: undefined,
      ca: undefined,
      timeoutMs: DEFAULT_DIRECTORY_TIMEOUT_MS,
    });
  });

  it('reads the service password from LDAP_BIND_PASSWORD_FILE and the CA from LDAP_CA_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'directory-config-'));
    writeFileSync(join(dir, 'pw'), 'from-file\n');
    writeFileSync(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
    const env = {
      ...LDAP_ENV,
      LDAP_BIND_PASSWORD: undefined,
      LDAP_BIND_PASSWORD_FILE: join(dir, 'pw'),
      LDAP_CA_FILE: join(dir, 'ca.pem'),
      LDAP_START_TLS: 'true',
    };
    expect(loadDirectoryConfig(env).fallback).toMatchObject({
      bindPassword: 'from-file',
      startTls: true,
      ca: '-----BEGIN CERTIFICATE-----\n',
    });
  });

  it('reads the directory object of an APP_CREDENTIALS entry', () => {
    const directory = {
      url: 'ldaps://ad.example.test:636',
      bindDn: 'svc@example.test',
      bindPassword: 'x',
      userBaseDn: 'dc=example,dc=test',
      userFilter: '(sAMAccountName={login})',
      timeoutMs: 1500,
    };
    const config = loadDirectoryConfig({
      APP_CREDENTIALS: JSON.stringify([
        { ...APP, directory },
        { ...APP, appToken: 'app-99' },
      ]),
    });
    expect(config.byApp.get(APP.appToken)).toMatchObject({
      urls: ['ldaps://ad.example.test:636'],
      userFilter: '(sAMAccountName={login})',
      timeoutMs: 1500,
    });
    expect(config.byApp.has('app-99')).toBe(false);
    expect(config.fallback).toBeUndefined();
  });

  it.each([
    [{ ...LDAP_ENV, LDAP_URL: 'http://dc1:389' }, /LDAP_URL: expected ldap:\/\/host:port or ldaps:\/\/host:port/],
    [{ ...LDAP_ENV, LDAP_BIND_DN: '' }, /LDAP_BIND_DN: required with a directory url/],
    [{ ...LDAP_ENV, LDAP_BIND_PASSWORD: undefined }, /LDAP_BIND_PASSWORD: required/],
    [{ ...LDAP_ENV, LDAP_USER_BASE_DN: undefined }, /LDAP_USER_BASE_DN: required/],
    [{ ...LDAP_ENV, LDAP_USER_FILTER: '(uid=admin)' }, /LDAP_USER_FILTER: expected a filter containing \{login\}/],
    [{ ...LDAP_ENV, LDAP_USER_FILTER: 'uid={login}' }, /LDAP_USER_FILTER: expected a filter in parentheses/],
    [{ ...LDAP_ENV, LDAP_START_TLS: 'maybe' }, /LDAP_START_TLS: expected true or false/],
    [{ ...LDAP_ENV, LDAP_URL: 'ldaps://dc1:636', LDAP_START_TLS: 'true' }, /LDAP_START_TLS: StartTLS is for ldap:\/\/ urls/],
    [{ ...LDAP_ENV, LDAP_TIMEOUT_MS: '50' }, /LDAP_TIMEOUT_MS: expected milliseconds from 100 to 60000/],
    [{ ...LDAP_ENV, LDAP_TIMEOUT_MS: 'soon' }, /LDAP_TIMEOUT_MS: expected milliseconds/],
    [{ ...LDAP_ENV, LDAP_CA_FILE: '/nonexistent/ca.pem' }, /LDAP_CA_FILE: cannot read/],
    [
      {
        APP_CREDENTIALS: JSON.stringify([
          { ...APP, directory: { url: 'ldap://x:389', bindDn: 'a', bindPassword: 'b', userBaseDn: 'c', startTls: 'yes' } },
        ]),
      },
      /APP_CREDENTIALS\[0\]\.directory\.startTls: expected true or false/,
    ],
    [
      {
        APP_CREDENTIALS: JSON.stringify([
          { ...APP, directory: { url: 'ldap://x:389', bindDn: 'a', bindPassword: 'b', userBaseDn: 'c', tls: true } },
        ]),
      },
      /APP_CREDENTIALS\[0\]\.directory: unknown field tls/,
    ],
    [{ APP_CREDENTIALS: JSON.stringify([{ ...APP, directory: { bindDn: 'a' } }]) }, /APP_CREDENTIALS\[0\]\.directory\.url: required/],
  ])('refuses an invalid setting, naming it (%#)', (env, message) => {
    expect(() => loadDirectoryConfig(env)).toThrow(message);
  });

  it('never puts the service password in an error', () => {
    try {
      loadDirectoryConfig({ ...LDAP_ENV, LDAP_URL: 'bad' });
    } catch (err) {
      expect((err as Error).message).not.toContain('svc-secret');
    }
    expect.assertions(1);
  });
});
