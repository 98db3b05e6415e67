import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Daemon, freePort } from '@geoaccount/testing';

/** The seeded directory: its suffix, service account and users (test data only). */
export const LDAP = {
  suffix: 'dc=example,dc=test',
  bindDn: 'cn=svc,dc=example,dc=test',
  bindPassword: 'svc-Secret-1',
  people: 'ou=people,dc=example,dc=test',
  /** A subtree with one user only: an unescaped `*` there would find exactly that user. */
  solo: 'ou=solo,dc=example,dc=test',
  users: {
    alice: 'Alice-pw-1',
    dave: 'Dave-pw-1',
    solo: 'Solo-pw-1',
    twin: 'Twin-pw-1',
  },
  /** An Active Directory-style user: `sAMAccountName` bsmith, `userPrincipalName` bsmith@example.test. */
  ad: { sAMAccountName: 'bsmith', upn: 'bsmith@example.test', password: 'Bsmith-pw-1' },
} as const;

const SLAPD_CANDIDATES = ['/usr/sbin/slapd', '/usr/local/sbin/slapd', '/usr/local/libexec/slapd'];
const MODULE_DIRS = ['/usr/lib/ldap', '/usr/lib/x86_64-linux-gnu/ldap', '/usr/lib/aarch64-linux-gnu/ldap', '/usr/local/lib/ldap'];
const SCHEMA_DIRS = ['/etc/ldap/schema', '/etc/openldap/schema', '/usr/local/etc/openldap/schema'];

function firstExisting(paths: string[], what: string): string {
  const found = paths.find((p) => existsSync(p));
  if (!found) throw new Error(`${what} not found (looked in ${paths.join(', ')}): install the Debian packages slapd and ldap-utils`);
  return found;
}

/** A test-only schema: the two Active Directory user attributes the AD-style filter needs. */
const AD_SCHEMA = `
attributetype ( 1.3.6.1.4.1.55555.1.1 NAME 'sAMAccountName'
  EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.2 NAME 'userPrincipalName'
  EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.55555.2.1 NAME 'testAdUser' SUP top AUXILIARY
  MAY ( sAMAccountName $ userPrincipalName ) )
`;

function person(dn: string, uid: string, password: string, extra = ''): string {
  return `dn: ${dn}
objectClass: inetOrgPerson${extra ? '\nobjectClass: testAdUser' : ''}
uid: ${uid}
cn: ${uid}
sn: ${uid}
userPassword: ${password}
${extra}`;
}

function seed(): string {
  const { suffix, people, solo, users, ad } = LDAP;
  return [
    `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: example\n`,
    `dn: ${LDAP.bindDn}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: svc\nuserPassword: ${LDAP.bindPassword}\n`,
    `dn: ${people}\nobjectClass: organizationalUnit\nou: people\n`,
    `dn: ${solo}\nobjectClass: organizationalUnit\nou: solo\n`,
    `dn: ou=staff,${suffix}\nobjectClass: organizationalUnit\nou: staff\n`,
    person(`uid=alice,${people}`, 'alice', users.alice),
    person(`uid=dave,${people}`, 'dave', users.dave),
    person(`uid=twin,${people}`, 'twin', users.twin),
    person(`uid=twin,ou=staff,${suffix}`, 'twin', users.twin),
    person(`uid=solo,${solo}`, 'solo', users.solo),
    person(
      `cn=Bob Smith,${people}`,
      'bob.smith',
      ad.password,
      `sAMAccountName: ${ad.sAMAccountName}\nuserPrincipalName: ${ad.upn}\n`,
    ).replace('cn: bob.smith', 'cn: Bob Smith'),
  ]
    .map((entry) => `${entry.trim()}\n`)
    .join('\n');
}

/** A CA, a server certificate for 127.0.0.1/localhost signed by it, and a second, unrelated CA. */
function makeCertificates(dir: string): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  for (const ca of ['ca', 'other-ca']) {
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.pem`,
      '-days',
      '2',
      '-subj',
      `/CN=${ca} of the tests`,
    );
  }
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
}

export interface SlapdOptions {
  /**
   * `allow bind_anon_cred bind_anon_dn`: a bind with a DN and an empty password "succeeds"
   * as anonymous, the directory trap an empty password must not fall into.
   */
  anonymousBinds?: boolean;
}

/**
 * A private OpenLDAP `slapd` for one test file: generated `slapd.conf` in a temporary
 * directory, seeded with `slapadd`, listening on free ports of 127.0.0.1 for `ldap://`
 * (StartTLS offered) and `ldaps://`, with a CA made for the run.
 */
export class PrivateSlapd {
  private daemon?: Daemon;

  private constructor(
    readonly dir: string,
    readonly port: number,
    readonly tlsPort: number,
    private readonly binary: string,
  ) {}

  get url(): string {
    return `ldap://127.0.0.1:${this.port}`;
  }

  get ldapsUrl(): string {
    return `ldaps://127.0.0.1:${this.tlsPort}`;
  }

  /** The CA that signed the server certificate. */
  get caFile(): string {
    return join(this.dir, 'ca.pem');
  }

  /** A CA that did not. */
  get otherCaFile(): string {
    return join(this.dir, 'other-ca.pem');
  }

  static async start(options: SlapdOptions = {}): Promise<PrivateSlapd> {
    const binary = firstExisting(SLAPD_CANDIDATES, 'slapd');
    const modules = firstExisting(MODULE_DIRS, 'the slapd modules directory');
    const schemas = firstExisting(SCHEMA_DIRS, 'the OpenLDAP schema directory');
    const dir = mkdtempSync(join(tmpdir(), 'slapd-'));
    try {
      mkdirSync(join(dir, 'db'));
      makeCertificates(dir);
      writeFileSync(join(dir, 'ad.schema'), AD_SCHEMA);
      const conf = [
        ...['core', 'cosine', 'inetorgperson'].map((s) => `include ${schemas}/${s}.schema`),
        `include ${join(dir, 'ad.schema')}`,
        `modulepath ${modules}`,
        ...(existsSync(join(modules, 'back_mdb.so')) || existsSync(join(modules, 'back_mdb.la')) ? ['moduleload back_mdb'] : []),
        `pidfile ${join(dir, 'slapd.pid')}`,
        `argsfile ${join(dir, 'slapd.args')}`,
        `TLSCACertificateFile ${join(dir, 'ca.pem')}`,
        `TLSCertificateFile ${join(dir, 'server.pem')}`,
        `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
        ...(options.anonymousBinds ? ['allow bind_anon_cred bind_anon_dn'] : []),
        'database mdb',
        'maxsize 33554432',
        `suffix "${LDAP.suffix}"`,
        `rootdn "cn=admin,${LDAP.suffix}"`,
        'rootpw admin-Secret-1',
        `directory ${join(dir, 'db')}`,
        'access to attrs=userPassword by anonymous auth by self read by * none',
        'access to * by * read',
        '',
      ].join('\n');
      writeFileSync(join(dir, 'slapd.conf'), conf);
      writeFileSync(join(dir, 'seed.ldif'), seed());
      execFileSync(binary, ['-T', 'add', '-f', join(dir, 'slapd.conf'), '-l', join(dir, 'seed.ldif')], { stdio: 'pipe' });
      const slapd = new PrivateSlapd(dir, await freePort(), await freePort(), binary);
      await slapd.restart();
      return slapd;
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Starts slapd (again) on the same ports and data. */
  async restart(): Promise<void> {
    const urls = `${this.url}/ ${this.ldapsUrl}/`;
    this.daemon = await Daemon.start(
      'slapd',
      this.binary,
      ['-d', '0', '-f', join(this.dir, 'slapd.conf'), '-h', urls],
      [this.port, this.tlsPort],
    );
  }

  /** Stops slapd (the data stays for a restart). */
  async stop(): Promise<void> {
    const daemon = this.daemon;
    this.daemon = undefined;
    await daemon?.stop();
  }

  /** Stops slapd and removes its directory. */
  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A TCP server that accepts connections and never answers (a hung directory). */
export class SilentServer {
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<SilentServer> {
    const server = createServer();
    const silent = (await new Promise<SilentServer>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve(new SilentServer(server, (server.address() as { port: number }).port))),
    )) as SilentServer;
    server.on('connection', (socket) => {
      silent.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => silent.sockets.delete(socket));
    });
    return silent;
  }

  get url(): string {
    return `ldap://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A TCP proxy to a local port that holds every answer of the server for `delayMs` (a distant directory). */
export class DelayProxy {
  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    readonly port: number,
  ) {}

  static async start(targetPort: number, delayMs: number): Promise<DelayProxy> {
    const sockets = new Set<Socket>();
    const server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.on('data', (chunk: Buffer) => setTimeout(() => client.write(chunk), delayMs));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new DelayProxy(server, sockets, (server.address() as { port: number }).port);
  }

  get url(): string {
    return `ldap://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
