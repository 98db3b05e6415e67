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
 * Environment: ACCOUNT_URL, LOCATION_URL, APP_TOKEN, APP_SECRET, APP_AES_KEY, APP_AES_MODE
 * (defaults: the local services and the demo app); for `admin`, ADMIN_URL (default: the local
 * account service) and ADMIN_TOKEN.
 */
import { type AesMode, DEMO_APP } from '@geoaccount/signing/portable';
import { type Fields, TestAccountClient } from './account-transport';
import { AdminClient } from './admin-client';
import type { AdminRole } from './admin-types';
import type { ClientResponse } from './http';
import { TestLbsClient } from './lbs-client';

type Command = { args: string[]; run: (a: string[], f: Fields) => Promise<ClientResponse<unknown>> };

function fieldsOf(pairs: string[]): Fields {
  const fields: Fields = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`expected name=value, got "${pair}"`);
    fields[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return fields;
}

/** Refuses a field a command does not take, naming it. */
function only(fields: Fields, names: readonly string[]): Fields {
  for (const name of Object.keys(fields)) if (!names.includes(name)) throw new Error(`unknown field ${name} (takes: ${names.join(', ') || 'none'})`);
  return fields;
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new Error(`${name}: expected a number of seconds, got "${value}"`);
  return Number(value);
}

/** `apps=app-1,app-2` as a list (empty: none). */
function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((v) => v.trim()).filter(Boolean);
}

function adminCommands(admin: AdminClient): Record<string, Command> {
  return {
    'create-app': {
      args: ['NAME'],
      run: ([name], f) => admin.createApp({ app_name: name!, ...(only(f, ['aes_mode']).aes_mode ? { aes_mode: f.aes_mode as 'gcm' | 'ecb' } : {}) }),
    },
    'list-apps': { args: [], run: (_, f) => (only(f, []), admin.listApps()) },
    'get-app': { args: ['APP'], run: ([app], f) => (only(f, []), admin.getApp(app!)) },
    'disable-app': { args: ['APP'], run: ([app], f) => (only(f, []), admin.disableApp(app!)) },
    'enable-app': { args: ['APP'], run: ([app], f) => (only(f, []), admin.enableApp(app!)) },
    'issue-credential': {
      args: ['APP'],
      run: ([app], f) => {
        const retire = integer('retire_others_in', only(f, ['retire_others_in']).retire_others_in);
        return admin.issueCredential(app!, retire === undefined ? {} : { retire_others_in: retire });
      },
    },
    'revoke-credential': { args: ['APP', 'ID'], run: ([app, id], f) => (only(f, []), admin.revokeCredential(app!, id!)) },
    'clear-lockout': { args: ['APP', 'USER_LOGIN_ID'], run: ([app, id], f) => (only(f, []), admin.clearLockout(app!, id!)) },
    'create-operator': {
      args: ['LOGIN'],
      run: ([login], f) => {
        only(f, ['role', 'apps', 'password', 'directory']);
        if (f.role === undefined) throw new Error('create-operator: role=admin|app_admin|auditor is required');
        if (f.directory !== undefined && f.directory !== 'true' && f.directory !== 'false') throw new Error('directory: expected true or false');
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
    'list-operators': { args: [], run: (_, f) => (only(f, []), admin.listOperators()) },
    'get-operator': { args: ['LOGIN'], run: ([login], f) => (only(f, []), admin.getOperator(login!)) },
    'audit-events': { args: [], run: (_, f) => admin.auditEvents(f) },
  };
}

const SERVICES = ['account', 'location', 'admin'] as const;
type Service = (typeof SERVICES)[number];

export function commands(env: NodeJS.ProcessEnv): Record<Service, Record<string, Command>> {
  const app = {
    appToken: env.APP_TOKEN ?? DEMO_APP.appToken,
    secret: env.APP_SECRET ?? DEMO_APP.secret,
    aesKey: env.APP_AES_KEY ?? DEMO_APP.aesKey,
    aesMode: (env.APP_AES_MODE ?? DEMO_APP.aesMode) as AesMode,
  };
  const account = new TestAccountClient({ baseUrl: env.ACCOUNT_URL ?? 'http://127.0.0.1:3001', ...app });
  const lbs = new TestLbsClient({ baseUrl: env.LOCATION_URL ?? 'http://127.0.0.1:3002', appToken: app.appToken, secret: app.secret });
  const admin = new AdminClient({ baseUrl: env.ADMIN_URL ?? env.ACCOUNT_URL ?? 'http://127.0.0.1:3001', token: env.ADMIN_TOKEN || undefined });
  return {
    admin: adminCommands(admin),
    account: {
      'create-auth': { args: ['AUTH_ID'], run: ([id], f) => account.createAuth(id!, f) },
      'modify-auth': { args: ['AUTH_ID'], run: ([id], f) => account.modifyAuth(id!, f) },
      'list-auths': { args: [], run: (_, f) => account.listAuths(f) },
      'get-auth': { args: ['AUTH_ID'], run: ([id]) => account.getAuth(id!) },
      'create-group': { args: ['GROUP_ID'], run: ([id], f) => account.createGroup(id!, f) },
      'modify-group': { args: ['GROUP_ID'], run: ([id], f) => account.modifyGroup(id!, f) },
      'list-groups': { args: [], run: (_, f) => account.listGroups(f) },
      'get-group': { args: ['GROUP_ID'], run: ([id]) => account.getGroup(id!) },
      'register-user': { args: ['USER_LOGIN_ID'], run: ([id], f) => account.registerUser(id!, f) },
      'modify-user': { args: ['USER_LOGIN_ID'], run: ([id], f) => account.modifyUser(id!, f) },
      'list-users': { args: [], run: (_, f) => account.listUsers(f) },
      'get-user': { args: ['USER_LOGIN_ID'], run: ([id]) => account.getUser(id!) },
      login: { args: ['USER_LOGIN_ID', 'PASSWORD'], run: ([id, pwd], f) => account.login(id!, pwd!, f) },
      'user-auths': { args: ['USER_LOGIN_ID'], run: ([id]) => account.userAuths(id!) },
      'user-has-auth': { args: ['USER_LOGIN_ID', 'AUTH_ID'], run: ([id, auth]) => account.userHasAuth(id!, auth!) },
      'audit-events': { args: [], run: (_, f) => account.auditEvents(f) },
    },
    location: {
      'lbs-query': { args: ['LONGITUDE', 'LATITUDE'], run: ([longitude, latitude], f) => lbs.lbsQuery({ ...f, longitude: longitude!, latitude: latitude! }) },
      'address-query': { args: ['CITY', 'ADDRESS'], run: ([city, address], f) => lbs.addressQuery({ ...f, city: city!, address: address! }) },
      'base-station-query': {
        args: ['MCC', 'MNC', 'LAC', 'CELLID'],
        run: ([mcc, mnc, lac, cellid], f) => lbs.baseStationQuery({ ...f, mcc: mcc!, mnc: mnc!, lac: lac!, cellid: cellid! }),
      },
    },
  };
}

function usage(all: ReturnType<typeof commands>): string {
  const lines = ['usage: cli <service> <command> [ARGS...] [name=value...]', ''];
  for (const [service, cmds] of Object.entries(all)) {
    for (const [name, cmd] of Object.entries(cmds)) lines.push(`  ${service} ${name} ${cmd.args.join(' ')}`.trimEnd());
  }
  return lines.join('\n');
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const all = commands(env);
  const [service, name, ...rest] = argv;
  const cmd = (SERVICES as readonly string[]).includes(service ?? '') ? all[service as Service][name ?? ''] : undefined;
  if (!cmd || rest.length < cmd.args.length) {
    process.stderr.write(`${usage(all)}\n`);
    return 2;
  }
  if (service === 'admin' && !env.ADMIN_TOKEN) {
    process.stderr.write('admin: set ADMIN_TOKEN (the account service prints the generated one at `pnpm start`)\n');
    return 2;
  }
  const res = await cmd.run(rest.slice(0, cmd.args.length), fieldsOf(rest.slice(cmd.args.length)));
  process.stdout.write(`HTTP ${res.status}\n${JSON.stringify(res.body, null, 2)}\n`);
  return res.status < 400 ? 0 : 1;
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
