import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const DOCS = join(__dirname, '../../../docs/openapi');
const bin = (pkg: string, file: string) => join(dirname(require.resolve(`${pkg}/package.json`)), file);

/** Code a client would write against the generated types: it must compile, and misuse must not. */
const USAGE = `
import type { paths as Account } from './account';
import type { paths as Location } from './location';

type UserAnswer = Account['/account/v1.0.1/users/{user_login_id}']['get']['responses'][200]['content']['application/json'];
export const user: UserAnswer = {
  response_code: '90000', response_message: 'success', user_id: 'u1', user_login_id: 'alice', org_id: null,
  user_pwd: null, user_pwd_encrypt: null, user_name: 'Alice', user_short_name: null, user_type: 'C', is_domain_user: '0',
  cert_type: null, cert_id: null, cert_id_encrypt: null, user_mobile: null, user_mobile_encrypt: null,
  user_auths: null, user_auth_groups: null, user_extends: null,
};
type CreateAuth = NonNullable<Account['/account/v1.0.1/auths/{auth_id}']['post']['requestBody']>['content']['application/x-www-form-urlencoded'];
export const create: CreateAuth = { auth_name: 'Orders', auth_state: '1', app_token: 'app-1', timestamp: '1', signature: 'ab' };
type Lbs = Location['/lbsapi/api/lbsQuery']['get'];
export const query: Lbs['parameters']['query'] = { 'param.longitude': '116.4', 'param.latitude': '39.9', userToken: 'app-1', signature: 'ab' };
export const code: Lbs['responses'][200]['content']['application/json']['lbsStat'] = '2';
`;

describe('a client generated from the documents (openapi-typescript)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'geoaccount-openapi-'));
    for (const name of ['account', 'location']) {
      execFileSync(process.execPath, [bin('openapi-typescript', 'bin/cli.js'), join(DOCS, `${name}.json`), '-o', join(dir, `${name}.ts`)], {
        stdio: 'pipe',
      });
    }
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          skipLibCheck: false,
          types: [],
        },
      }),
    );
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tsc = () =>
    execFileSync(process.execPath, [bin('typescript', 'bin/tsc'), '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe', encoding: 'utf8' });

  it('compiles with tsc --noEmit, with code using its request and answer types', () => {
    writeFileSync(join(dir, 'usage.ts'), USAGE);
    expect(() => tsc()).not.toThrow();
  }, 60_000);

  it('types the answers closely: a missing answer field or a wrong enum value does not compile', () => {
    writeFileSync(join(dir, 'usage.ts'), USAGE.replace('user_extends: null,', '').replace("= '2';", "= '3';"));
    let output = '';
    try {
      tsc();
    } catch (err) {
      output = String((err as { stdout?: string }).stdout);
    }
    expect(output).toMatch(/user_extends/);
    expect(output).toMatch(/"3"/);
  }, 60_000);
});
