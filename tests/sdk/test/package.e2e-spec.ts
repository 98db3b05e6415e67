/**
 * The SDK as a client developer gets it: `npm pack` of libs/client, installed into a project
 * outside the workspace, then used from Node CommonJS, Node ESM and an ES module page in headless
 * Chromium, against the compiled account and location services (a gcm and an ecb app).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { chromium } from 'playwright-core';

const ROOT = join(__dirname, '../../..');
const GCM = { appToken: 'app-5dc1a0e2', secret: 'sdk-secret-gcm-0123456789', aesKey: 'sdk-aes-gcm', aesMode: 'gcm' };
const ECB = { appToken: 'app-5dc1a0e3', secret: 'sdk-secret-ecb-0123456789', aesKey: 'sdk-aes-ecb', aesMode: 'ecb' };

interface Service {
  url: string;
  child: ChildProcess;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

async function startService(kind: 'account' | 'location', env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, `apps/${kind}/dist/main.js`)], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', APP_CREDENTIALS: JSON.stringify([GCM, ECB]), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${kind} exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/health/ready`).then((r) => r.ok, () => false);
    if (ready) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${kind} did not become ready`);
}

/** Serves the page and the installed package, and forwards the API paths to the services (one origin, as behind a gateway). */
function gateway(account: string, location: string, files: Record<string, [string, string]>): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const file = files[req.url ?? ''];
    if (file) {
      res.writeHead(200, { 'Content-Type': file[0] }).end(readFileSync(file[1]));
      return;
    }
    const target = new URL(req.url ?? '/', req.url?.startsWith('/lbsapi/') ? location : account);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** What every consumer does with the SDK; returns what it saw. Written once, run in CJS, ESM and the browser. */
const SCENARIO = `
async function scenario(sdk, urls, apps, tag) {
  const out = {};
  for (const app of apps) {
    const account = new sdk.AccountClient({ baseUrl: urls.account, ...app, nonce: true });
    const id = 'SDK-' + tag + '-' + app.aesMode;
    await account.createAuth(id, { auth_name: 'from ' + tag }).then((r) => r.ok());
    out[app.aesMode + '_auth'] = (await account.getAuth(id)).ok().auth_name;
    await account.registerUser(id, { user_name: 'n', user_type: 'C', user_pwd: 'P@ss-' + tag, user_auths: id }).then((r) => r.ok());
    out[app.aesMode + '_login'] = (await account.login(id, 'P@ss-' + tag)).ok().user_auths;
    try {
      (await account.login(id, 'wrong')).ok();
      out[app.aesMode + '_wrong'] = 'accepted';
    } catch (err) {
      out[app.aesMode + '_wrong'] = [err instanceof sdk.ApiError, err.status, err.code].join(' ');
    }
  }
  const lbs = new sdk.LbsClient({ baseUrl: urls.location, appToken: apps[0].appToken, secret: apps[0].secret });
  const place = (await lbs.lbsQuery({ longitude: '116.397', latitude: '39.909' })).ok();
  out.place = place.standardCode + ' ' + place.provinceName;
  return out;
}
`;

describe('@geoaccount/client, packed and installed outside the workspace', () => {
  let dir: string;
  let tarball: string;
  let database: string;
  let account: Service;
  let location: Service;
  let urls: { account: string; location: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: join(ROOT, 'libs/client'), stdio: ['ignore', 'ignore', 'inherit'] });
    tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true }));
    // --offline: the package must need nothing from a registry
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', `./${tarball}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });

    const server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    database = `sdk_package_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const dbUrl = new URL(server);
    dbUrl.pathname = `/${database}`;
    [account, location] = await Promise.all([
      startService('account', { DATABASE_URL: dbUrl.toString() }),
      startService('location', { CACHE_KEY_PREFIX: `sdk-${database}:` }),
    ]);
    urls = { account: account.url, location: location.url };
  });

  afterAll(async () => {
    for (const s of [account, location]) s?.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    const admin = new Client({ connectionString: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  const expected = (tag: string) => ({
    gcm_auth: `from ${tag}`,
    gcm_login: `SDK-${tag}-gcm`,
    gcm_wrong: 'true 401 20441',
    ecb_auth: `from ${tag}`,
    ecb_login: `SDK-${tag}-ecb`,
    ecb_wrong: 'true 401 20441',
    place: '110101 北京市',
  });

  it('installs as one tarball with no dependency and both module formats', () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules/@geoaccount/client/package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(readdirSync(join(dir, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['@geoaccount']);
    for (const f of ['index.cjs', 'index.mjs', 'index.d.ts', 'index.d.mts', 'cli.cjs']) expect(readdirSync(join(dir, 'node_modules/@geoaccount/client/dist'))).toContain(f);
    expect(readFileSync(join(dir, 'node_modules/@geoaccount/client/dist/index.mjs'), 'utf8')).not.toMatch(/from ['"]node:|require\(['"]node:/);
  });

  it('packs a clean manifest (prepack builds it) that publint and are-the-types-wrong accept', () => {
    const installed = join(dir, 'node_modules/@geoaccount/client');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['scripts', 'nx', 'devDependencies', 'dependencies']) expect({ field, value: pkg[field] }).toEqual({ field, value: undefined });
    expect(pkg).toMatchObject({
      license: 'Apache-2.0',
      sideEffects: false,
      engines: { node: '>=20' },
      repository: expect.objectContaining({ type: 'git', directory: 'libs/client' }),
      homepage: expect.stringMatching(/^https:\/\//),
    });
    expect(JSON.stringify(pkg)).not.toMatch(/workspace:/);
    // The workspace's manifest is back after packing.
    expect(JSON.parse(readFileSync(join(ROOT, 'libs/client/package.json'), 'utf8'))).toHaveProperty('scripts.prepack');
    const tool = (pkg: string, file: string) => join(ROOT, 'node_modules', pkg, file);
    execFileSync(process.execPath, [tool('publint', 'src/cli.js'), installed, '--strict'], { stdio: 'pipe' });
    // node16 and bundlers (node10 cannot resolve subpath exports such as /openapi-fetch at all).
    execFileSync(process.execPath, [tool('@arethetypeswrong/cli', 'dist/index.js'), join(dir, tarball), '--profile', 'node16'], { stdio: 'pipe' });
  });

  it('type-checks a strict TypeScript program (exactOptionalPropertyTypes) against the installed types', () => {
    writeFileSync(
      join(dir, 'strict.ts'),
      `import { AccountClient, LbsClient, NetworkError, type AccountResultCode } from '@geoaccount/client';
import { accountSigning } from '@geoaccount/client/openapi-fetch';
const account = new AccountClient({ baseUrl: 'http://127.0.0.1:1', appToken: 'app-1', secret: 's', timeoutMs: 1000 });
export async function use(): Promise<string> {
  const auth = (await account.getAuth('A1', { signal: AbortSignal.timeout(5000) })).ok();
  const code: AccountResultCode<'getAuth'> = '10301';
  // @ts-expect-error a misspelt field
  await account.createAuth('A1', { auth_nmae: 'x' });
  const lbs = new LbsClient({ baseUrl: 'http://127.0.0.1:2', appToken: 'app-1', secret: 's' });
  const place = (await lbs.lbsQuery({ longitude: '1', latitude: '2' })).ok();
  void accountSigning({ appToken: 'app-1', secret: 's' });
  return [auth.auth_name, code, place.standardCode, String(NetworkError)].join();
}
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false },
        files: ['strict.ts'],
      }),
    );
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe', encoding: 'utf8' });
  });

  it.each(['cjs', 'mjs'])('works from Node (%s)', (ext) => {
    const load = ext === 'cjs' ? `const sdk = require('@geoaccount/client');` : `import * as sdk from '@geoaccount/client';`;
    const main = ext === 'cjs' ? `scenario(sdk, URLS, APPS, '${ext}').then((o) => console.log(JSON.stringify(o)));` : `console.log(JSON.stringify(await scenario(sdk, URLS, APPS, '${ext}')));`;
    writeFileSync(join(dir, `consumer.${ext}`), `${load}\nconst URLS = ${JSON.stringify(urls)};\nconst APPS = ${JSON.stringify([GCM, ECB])};\n${SCENARIO}\n${main}\n`);
    const out = execFileSync(process.execPath, [`consumer.${ext}`], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(expected(ext));
  });

  it('works in a page in headless Chromium (Web Crypto, no Node API)', async () => {
    writeFileSync(join(dir, 'page.html'), '<!doctype html><meta charset="utf-8"><title>sdk</title><p>sdk</p>');
    const server = await gateway(account.url, location.url, {
      '/page.html': ['text/html; charset=utf-8', join(dir, 'page.html')],
      '/sdk/index.mjs': ['text/javascript', join(dir, 'node_modules/@geoaccount/client/dist/index.mjs')],
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/page.html`);
      // A string, not a function: the page runs it as written (no test-side transpiling).
      const out = await page.evaluate(`(async () => {
        const sdk = await import('${origin}/sdk/index.mjs');
        ${SCENARIO}
        return scenario(sdk, { account: '${origin}', location: '${origin}' }, ${JSON.stringify([GCM, ECB])}, 'browser');
      })()`);
      expect(out).toEqual(expected('browser'));
    } finally {
      await browser.close();
      await new Promise((r) => server.close(r));
    }
  });
});
