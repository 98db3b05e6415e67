#!/usr/bin/env node
/**
 * Calls any endpoint of either service from the shell, signed with an app's credentials.
 *
 *   pnpm cli account get-user alice
 *   pnpm cli account create-auth A100 auth_name=Orders auth_state=1
 *   pnpm cli account login alice 'P@ssw0rd!'
 *   pnpm cli location lbs-query 116.397 39.909
 *   pnpm cli admin create-app Orders aes_mode=ecb
 *
 *   pnpm cli account create-auth --help
 *
 * Environment: ACCOUNT_URL, LOCATION_URL, APP_TOKEN, APP_SECRET, APP_AES_KEY, APP_AES_MODE
 * (defaults: the local services and the demo app). Exit codes: 0 success, 1 refused (HTTP ≥ 400),
 * 2 a command line that is not one, 3 the service unreachable. For `admin`: ADMIN_URL (default:
 * the local account service) and ADMIN_TOKEN.
 */
import { type AesMode, DEMO_APP } from '@geoaccount/signing/portable';
import { parseArgs } from 'node:util';
import { type Fields, TestAccountClient } from './account-transport';
import { AdminClient } from './admin-client';
import type { AdminRole } from './schema';
import { NetworkError } from './errors';
import type { ClientResponse } from './http';
import { TestLbsClient } from './lbs-client';

/**
 * One command: its positional arguments, then `name=value` fields; `run` sends the call. A group
 * of commands is a service (`account`, `location`, …): another group is one more entry of
 * `commands()`, parsed and documented (`--help`) the same way.
 */
export interface Command {
  summary: string;
  args: string[];
  /** Whether the command takes `name=value` fields after its arguments. */
  fields?: boolean;
  run: (args: string[], fields: Fields) => Promise<ClientResponse<unknown>>;
}
export type CommandGroup = Record<string, Command>;

function fieldsOf(pairs: string[]): Fields {
  const fields: Fields = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`expected name=value, got "${pair}"`);
    fields[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return fields;
}

/** Refuses a field a command does not take, naming it. */
function only(fields: Fields, names: readonly string[]): Fields {
  for (const name of Object.keys(fields))
    if (!names.includes(name)) throw new UsageError(`unknown field ${name} (takes: ${names.join(', ') || 'none'})`);
  return fields;
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new UsageError(`${name}: expected a number of seconds, got "${value}"`);
  return Number(value);
}

/** `apps=app-1,app-2` as a list (empty: none). */
function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
}

function adminCommands(admin: AdminClient): CommandGroup {
  return {
    'create-app': {
      summary: 'create an app and its first credential (admin API)',
      fields: true,
      args: ['NAME'],
      run: ([name], f) =>
        admin.createApp({ app_name: name!, ...(only(f, ['aes_mode']).aes_mode ? { aes_mode: f.aes_mode as 'gcm' | 'ecb' } : {}) }),
    },
    'list-apps': { summary: 'list the apps', args: [], run: (_, f) => (only(f, []), admin.listApps()) },
    'get-app': { summary: 'read an app and its credentials', args: ['APP'], run: ([app], f) => (only(f, []), admin.getApp(app!)) },
    'disable-app': { summary: 'disable an app', args: ['APP'], run: ([app], f) => (only(f, []), admin.disableApp(app!)) },
    'enable-app': { summary: 'enable an app', args: ['APP'], run: ([app], f) => (only(f, []), admin.enableApp(app!)) },
    'issue-credential': {
      summary: 'issue a credential (retire_others_in=SECONDS retires the other)',
      fields: true,
      args: ['APP'],
      run: ([app], f) => {
        const retire = integer('retire_others_in', only(f, ['retire_others_in']).retire_others_in);
        return admin.issueCredential(app!, retire === undefined ? {} : { retire_others_in: retire });
      },
    },
    'revoke-credential': {
      summary: 'revoke a credential',
      args: ['APP', 'ID'],
      run: ([app, id], f) => (only(f, []), admin.revokeCredential(app!, id!)),
    },
    'clear-lockout': {
      summary: 'clear the lockout of a login id',
      args: ['APP', 'USER_LOGIN_ID'],
      run: ([app, id], f) => (only(f, []), admin.clearLockout(app!, id!)),
    },
    'create-operator': {
      summary: 'create an operator (role=admin|app_admin|auditor [apps=…] [password=…])',
      fields: true,
      args: ['LOGIN'],
      run: ([login], f) => {
        only(f, ['role', 'apps', 'password', 'directory']);
        if (f.role === undefined) throw new UsageError('create-operator: role=admin|app_admin|auditor is required');
        if (f.directory !== undefined && f.directory !== 'true' && f.directory !== 'false')
          throw new UsageError('directory: expected true or false');
        return admin.createOperator({
          login: login!,
          role: f.role as AdminRole,
          ...(f.apps === undefined ? {} : { apps: list(f.apps) }),
          ...(f.password === undefined ? {} : { password: f.password }),
          ...(f.directory === undefined ? {} : { directory: f.directory === 'true' }),
        });
      },
    },
    'modify-operator': {
      summary: 'change an operator (role, apps, state, password)',
      fields: true,
      args: ['LOGIN'],
      run: ([login], f) => {
        only(f, ['role', 'apps', 'state', 'password']);
        return admin.modifyOperator(login!, {
          ...(f.role === undefined ? {} : { role: f.role as AdminRole }),
          ...(f.apps === undefined ? {} : { apps: list(f.apps) }),
          ...(f.state === undefined ? {} : { state: f.state as 'enabled' | 'disabled' }),
          ...(f.password === undefined ? {} : { password: f.password }),
        });
      },
    },
    'list-operators': { summary: 'list the operators', args: [], run: (_, f) => (only(f, []), admin.listOperators()) },
    'get-operator': { summary: 'read an operator', args: ['LOGIN'], run: ([login], f) => (only(f, []), admin.getOperator(login!)) },
    'audit-events': { summary: 'the audit trail of every app (admin API)', fields: true, args: [], run: (_, f) => admin.auditEvents(f) },
  };
}

/** The admin commands refuse to run without `ADMIN_TOKEN` (usage error, exit code 2). */
function requiringToken(group: CommandGroup, token: string | undefined): CommandGroup {
  const out: CommandGroup = {};
  for (const [name, cmd] of Object.entries(group)) {
    out[name] = {
      ...cmd,
      run: (args, fields) => {
        if (!token) throw new UsageError('ADMIN_TOKEN is required: the bearer token of the admin API');
        return cmd.run(args, fields);
      },
    };
  }
  return out;
}

/** A command line that is not one: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function commands(env: NodeJS.ProcessEnv): Record<string, CommandGroup> {
  if (env.APP_TOKEN === '') throw new UsageError('missing app_token: APP_TOKEN is set but empty');
  const app = {
    appToken: env.APP_TOKEN ?? DEMO_APP.appToken,
    secret: env.APP_SECRET ?? DEMO_APP.secret,
    aesKey: env.APP_AES_KEY ?? DEMO_APP.aesKey,
    aesMode: (env.APP_AES_MODE ?? DEMO_APP.aesMode) as AesMode,
  };
  const account = new TestAccountClient({ baseUrl: env.ACCOUNT_URL ?? 'http://127.0.0.1:3001', ...app });
  const lbs = new TestLbsClient({ baseUrl: env.LOCATION_URL ?? 'http://127.0.0.1:3002', appToken: app.appToken, secret: app.secret });
  const admin = new AdminClient({
    baseUrl: env.ADMIN_URL ?? env.ACCOUNT_URL ?? 'http://127.0.0.1:3001',
    token: env.ADMIN_TOKEN || undefined,
  });
  return {
    admin: requiringToken(adminCommands(admin), env.ADMIN_TOKEN),
    account: {
      'create-auth': {
        summary: 'create an auth (interface 100)',
        args: ['AUTH_ID'],
        fields: true,
        run: ([id], f) => account.createAuth(id!, f),
      },
      'modify-auth': { summary: 'modify an auth (101)', args: ['AUTH_ID'], fields: true, run: ([id], f) => account.modifyAuth(id!, f) },
      'list-auths': { summary: 'list auths (102)', args: [], fields: true, run: (_, f) => account.listAuths(f) },
      'get-auth': { summary: 'read an auth (103)', args: ['AUTH_ID'], run: ([id]) => account.getAuth(id!) },
      'create-group': { summary: 'create a group (104)', args: ['GROUP_ID'], fields: true, run: ([id], f) => account.createGroup(id!, f) },
      'modify-group': { summary: 'modify a group (105)', args: ['GROUP_ID'], fields: true, run: ([id], f) => account.modifyGroup(id!, f) },
      'list-groups': { summary: 'list groups (106)', args: [], fields: true, run: (_, f) => account.listGroups(f) },
      'get-group': { summary: 'read a group (107)', args: ['GROUP_ID'], run: ([id]) => account.getGroup(id!) },
      'register-user': {
        summary: 'register a user (200)',
        args: ['USER_LOGIN_ID'],
        fields: true,
        run: ([id], f) => account.registerUser(id!, f),
      },
      'modify-user': {
        summary: 'modify a user (201)',
        args: ['USER_LOGIN_ID'],
        fields: true,
        run: ([id], f) => account.modifyUser(id!, f),
      },
      'list-users': { summary: 'list users, a page (202)', args: [], fields: true, run: (_, f) => account.listUsers(f) },
      'get-user': { summary: 'read a user (203)', args: ['USER_LOGIN_ID'], run: ([id]) => account.getUser(id!) },
      login: {
        summary: 'log a user in (204); the password is encrypted here',
        args: ['USER_LOGIN_ID', 'PASSWORD'],
        fields: true,
        run: ([id, pwd], f) => account.login(id!, pwd!, f),
      },
      'user-auths': { summary: "a user's effective auths (205)", args: ['USER_LOGIN_ID'], run: ([id]) => account.userAuths(id!) },
      'user-has-auth': {
        summary: 'whether a user holds an auth (206)',
        args: ['USER_LOGIN_ID', 'AUTH_ID'],
        run: ([id, auth]) => account.userHasAuth(id!, auth!),
      },
      'audit-events': { summary: "the app's audit events (207)", args: [], fields: true, run: (_, f) => account.auditEvents(f) },
    },
    location: {
      'lbs-query': {
        summary: 'coordinates to address',
        args: ['LONGITUDE', 'LATITUDE'],
        fields: true,
        run: ([longitude, latitude], f) => lbs.lbsQuery({ ...f, longitude: longitude!, latitude: latitude! }),
      },
      'address-query': {
        summary: 'address to coordinates',
        args: ['CITY', 'ADDRESS'],
        fields: true,
        run: ([city, address], f) => lbs.addressQuery({ ...f, city: city!, address: address! }),
      },
      'base-station-query': {
        summary: 'a cell to coordinates and address',
        args: ['MCC', 'MNC', 'LAC', 'CELLID'],
        fields: true,
        run: ([mcc, mnc, lac, cellid], f) => lbs.baseStationQuery({ ...f, mcc: mcc!, mnc: mnc!, lac: lac!, cellid: cellid! }),
      },
    },
  };
}

function synopsis(service: string, name: string, cmd: Command): string {
  return `${service} ${name} ${cmd.args.join(' ')}${cmd.fields ? ' [name=value...]' : ''}`.replace(/ +/g, ' ').trimEnd();
}

export function usage(all: Record<string, CommandGroup>): string {
  const lines = ['usage: cli <service> <command> [ARGS...] [name=value...]   (cli <service> <command> --help)', ''];
  for (const [service, cmds] of Object.entries(all)) {
    for (const [name, cmd] of Object.entries(cmds)) lines.push(`  ${synopsis(service, name, cmd).padEnd(58)} ${cmd.summary}`);
  }
  return lines.join('\n');
}

function commandHelp(service: string, name: string, cmd: Command): string {
  return [
    `usage: cli ${synopsis(service, name, cmd)}`,
    '',
    `${cmd.summary}.`,
    ...(cmd.fields ? ['Fields are the API field names (docs/account-api.md, docs/location-api.md), e.g. auth_name=Orders.'] : []),
    service === 'admin'
      ? 'Environment: ADMIN_URL (default: ACCOUNT_URL or the local account service), ADMIN_TOKEN.'
      : 'Environment: ACCOUNT_URL, LOCATION_URL, APP_TOKEN, APP_SECRET, APP_AES_KEY, APP_AES_MODE.',
  ].join('\n');
}

/** The command of a command line, its arguments and fields; `help`: print the command's help. */
export function parseCommandLine(
  argv: string[],
  all: Record<string, CommandGroup>,
): { service: string; name: string; cmd: Command; args: string[]; fields: Fields; help: boolean } {
  const [service = '', name = '', ...rest] = argv;
  const cmd = Object.hasOwn(all, service) && Object.hasOwn(all[service]!, name) ? all[service]![name]! : undefined;
  if (!cmd) throw new UsageError(service && name ? `unknown command: ${service} ${name}` : 'missing command');
  // A negative number (a longitude west of Greenwich) is an argument, not an option: it and what
  // follows are positionals (so is anything after `--`, e.g. a password starting with "-").
  const negative = rest.findIndex((t) => /^-[\d.]/.test(t));
  const tokens = negative < 0 ? rest : [...rest.slice(0, negative), '--', ...rest.slice(negative)];
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: tokens, options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message} (cli ${service} ${name} --help)`);
  }
  const positionals = parsed.positionals;
  const help = parsed.values.help === true;
  if (!help && positionals.length < cmd.args.length) {
    throw new UsageError(`missing ${cmd.args.slice(positionals.length).join(' ')}: usage: cli ${synopsis(service, name, cmd)}`);
  }
  const extra = positionals.slice(cmd.args.length);
  if (!help && !cmd.fields && extra.length > 0) throw new UsageError(`${service} ${name} takes no fields, got "${extra[0]}"`);
  return { service, name, cmd, args: positionals.slice(0, cmd.args.length), fields: help ? {} : fieldsOf(extra), help };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv, all?: Record<string, CommandGroup>): Promise<number> {
  let line: ReturnType<typeof parseCommandLine>;
  let groups: Record<string, CommandGroup>;
  try {
    groups = all ?? commands(env);
    line = parseCommandLine(argv, groups);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const listAll = /^(unknown|missing) command/.test(err.message);
    process.stderr.write(`${err.message}\n${listAll ? `\n${usage(all ?? commandsOrEmpty(env))}\n` : ''}`);
    return 2;
  }
  if (line.help) {
    process.stdout.write(`${commandHelp(line.service, line.name, line.cmd)}\n`);
    return 0;
  }
  try {
    const res = await line.cmd.run(line.args, line.fields);
    process.stdout.write(`HTTP ${res.status}\n${JSON.stringify(res.body, null, 2)}\n`);
    return res.status < 400 ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    if (!(err instanceof NetworkError)) throw err;
    // The URL and the system's code (ECONNREFUSED, ENOTFOUND, TimeoutError, …), not a bare "fetch failed".
    const cause = (err.cause as { cause?: { code?: string } } | undefined)?.cause?.code ?? err.code ?? 'network error';
    process.stderr.write(`cannot reach ${err.url}: ${cause}\n`);
    return 3;
  }
}

/** The commands for the usage text, even when the environment is refused. */
function commandsOrEmpty(env: NodeJS.ProcessEnv): Record<string, CommandGroup> {
  try {
    return commands(env);
  } catch {
    return commands({ ...env, APP_TOKEN: undefined });
  }
}

if (require.main === module) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(2);
    },
  );
}
