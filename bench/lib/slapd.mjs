// A private OpenLDAP slapd for the domain-login case: generated slapd.conf in a temporary
// directory, one service account and one user seeded with slapadd, on a free port of
// 127.0.0.1 (plain ldap://: the case measures the service's check, not TLS).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './common.mjs';

const SLAPD = ['/usr/sbin/slapd', '/usr/local/sbin/slapd', '/usr/local/libexec/slapd'];
const MODULES = ['/usr/lib/ldap', '/usr/lib/x86_64-linux-gnu/ldap', '/usr/lib/aarch64-linux-gnu/ldap', '/usr/local/lib/ldap'];
const SCHEMAS = ['/etc/ldap/schema', '/etc/openldap/schema', '/usr/local/etc/openldap/schema'];

export const BENCH_DIRECTORY = {
  suffix: 'dc=bench,dc=test',
  bindDn: 'cn=svc,dc=bench,dc=test',
  bindPassword: 'bench-svc-Secret-1',
  base: 'ou=people,dc=bench,dc=test',
  loginId: 'bench-domain',
  password: 'Bench-domain-pw-1',
  /** Further users `bench-domain-000`… with the same password, for logins spread over many ids. */
  users: 100,
};

/** The login id of the `n`-th further user. */
export const benchDomainUser = (n) => `${BENCH_DIRECTORY.loginId}-${String(n).padStart(3, '0')}`;

const reachable = (port) =>
  new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** Starts slapd; throws naming the Debian packages when it is not installed. */
export async function startBenchSlapd() {
  const find = (list, what) => {
    const found = list.find((p) => existsSync(p));
    if (!found) throw new Error(`${what} not found: install the Debian packages slapd and ldap-utils`);
    return found;
  };
  const binary = find(SLAPD, 'slapd');
  const modules = find(MODULES, 'the slapd modules directory');
  const schemas = find(SCHEMAS, 'the OpenLDAP schema directory');
  const d = BENCH_DIRECTORY;
  const dir = mkdtempSync(join(tmpdir(), 'bench-slapd-'));
  mkdirSync(join(dir, 'db'));
  const conf = [
    ...['core', 'cosine', 'inetorgperson'].map((s) => `include ${schemas}/${s}.schema`),
    `modulepath ${modules}`,
    ...(existsSync(join(modules, 'back_mdb.so')) || existsSync(join(modules, 'back_mdb.la')) ? ['moduleload back_mdb'] : []),
    `pidfile ${join(dir, 'slapd.pid')}`,
    'database mdb',
    'maxsize 33554432',
    `suffix "${d.suffix}"`,
    `directory ${join(dir, 'db')}`,
    'access to attrs=userPassword by anonymous auth by * none',
    'access to * by * read',
    '',
  ].join('\n');
  const seed = [
    `dn: ${d.suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: bench\no: bench\n`,
    `dn: ${d.bindDn}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: svc\nuserPassword: ${d.bindPassword}\n`,
    `dn: ${d.base}\nobjectClass: organizationalUnit\nou: people\n`,
    ...[d.loginId, ...Array.from({ length: d.users }, (_, n) => benchDomainUser(n))].map(
      (id) => `dn: uid=${id},${d.base}\nobjectClass: inetOrgPerson\nuid: ${id}\ncn: ${id}\nsn: bench\nuserPassword: ${d.password}\n`,
    ),
  ].join('\n');
  writeFileSync(join(dir, 'slapd.conf'), conf);
  writeFileSync(join(dir, 'seed.ldif'), seed);
  try {
    execFileSync(binary, ['-T', 'add', '-f', join(dir, 'slapd.conf'), '-l', join(dir, 'seed.ldif')], { stdio: 'pipe' });
    const port = await freePort();
    const child = spawn(binary, ['-d', '0', '-f', join(dir, 'slapd.conf'), '-h', `ldap://127.0.0.1:${port}/`], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !(await reachable(port)); i++) await new Promise((r) => setTimeout(r, 50));
    if (!(await reachable(port))) throw new Error('slapd did not listen within 5 s');
    return {
      ...d,
      url: `ldap://127.0.0.1:${port}`,
      pid: child.pid,
      async stop() {
        if (child.exitCode === null) await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
