#!/usr/bin/env node
// `node scripts/with-test-servers.mjs [--groups=redis,ldap] <command> [args…]`: runs one command
// (an app's e2e jest run) with DATABASE_URL and REDIS_URL pointing at real servers, found or
// started by the same helper as `pnpm test` (scripts/test-servers.mjs), after checking (and
// where possible installing) the system programs of the named groups (scripts/system-packages.mjs;
// all groups when none is named). Stops what it started afterwards. Under `pnpm test` both
// variables are already set and no server is started here.
import { spawn } from 'node:child_process';
import { ensureTestServers } from './test-servers.mjs';

const argv = process.argv.slice(2);
const groups = argv[0]?.startsWith('--groups=') ? argv.shift().slice('--groups='.length).split(',').filter(Boolean) : undefined;
const [command, ...args] = argv;
if (!command) {
  console.error('usage: with-test-servers.mjs [--groups=a,b] <command> [args…]');
  process.exit(2);
}

const env = { ...process.env };
const stopServers = await ensureTestServers(env, { groups });
const child = spawn(command, args, { env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => {
  child.once('error', (err) => (console.error(`${command}: ${err.message}`), resolve(127)));
  child.once('exit', (status, signal) => resolve(status ?? (signal ? 128 : 1)));
});
await stopServers();
process.exit(code);
