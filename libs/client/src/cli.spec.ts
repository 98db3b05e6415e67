import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { main, parseCommandLine, commands } from './cli';

/** Runs the CLI, capturing what it writes. */
async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((c) => ((out += String(c)), true));
  const e = jest.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
  try {
    return { code: await main(argv, env), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('cli', () => {
  it('prints the usage and exits 2 for an unknown or missing command', async () => {
    for (const argv of [['account', 'nope'], ['account'], []]) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.err).toContain('account get-user USER_LOGIN_ID');
      expect(r.err).toContain('account audit-events [name=value...]');
    }
  });

  it('answers --help per command without calling anything', async () => {
    const r = await run(['account', 'create-auth', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('usage: cli account create-auth AUTH_ID [name=value...]');
    expect((await run(['location', 'lbs-query', '-h'])).out).toContain('usage: cli location lbs-query LONGITUDE LATITUDE');
    // --help is never sent as a login id.
    expect((await run(['account', 'get-user', '--help'])).out).toContain('usage: cli account get-user USER_LOGIN_ID');
  });

  it('refuses a field without a value, a missing argument and an unknown option, naming them', async () => {
    expect(await run(['account', 'list-auths', 'auth_state'])).toMatchObject({ code: 2, err: expect.stringContaining('expected name=value, got "auth_state"') });
    expect(await run(['account', 'get-user'])).toMatchObject({ code: 2, err: expect.stringContaining('missing USER_LOGIN_ID') });
    expect(await run(['account', 'get-user', 'alice', '--verbose'])).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--verbose'") });
    expect(await run(['account', 'get-user', 'alice', 'x=1'])).toMatchObject({ code: 2, err: expect.stringContaining('takes no fields') });
  });

  it('takes a negative longitude as an argument', () => {
    const line = parseCommandLine(['location', 'lbs-query', '-73.98', '40.75', 'merId=M1'], commands({}));
    expect(line.args).toEqual(['-73.98', '40.75']);
    expect(line.fields).toEqual({ merId: 'M1' });
  });

  it('says "missing app_token" for an empty APP_TOKEN', async () => {
    expect(await run(['account', 'get-user', 'alice'], { APP_TOKEN: '' })).toMatchObject({ code: 2, err: expect.stringContaining('missing app_token') });
  });

  it('names the URL and the cause when the service cannot be reached', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const r = await run(['account', 'get-user', 'alice'], { ACCOUNT_URL: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(3);
    expect(r.err).toMatch(new RegExp(`^cannot reach http://127.0.0.1:${port}/account/v1.0.1/users/alice\\?.*: ECONNREFUSED\\n$`));
  });
});
