/**
 * libs/api is mechanism only: a module owns its vocabulary. No source of this library names a
 * field of the account API (read from its published OpenAPI document), one of its interfaces or
 * one of its five-digit codes other than the common 9xxxx ones.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
/** Fields of the mechanism itself: the envelope's and the signature's. */
const MECHANISM_FIELDS = new Set(['response_code', 'response_message', 'app_token', 'signature', 'timestamp', 'nonce']);

function propertyNames(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) propertyNames(item, out);
  else if (typeof node === 'object' && node !== null) {
    const o = node as Record<string, unknown>;
    if (typeof o.properties === 'object' && o.properties !== null) for (const name of Object.keys(o.properties)) out.add(name);
    if (o.in === 'query' || o.in === 'path') out.add(String(o.name));
    for (const value of Object.values(o)) propertyNames(value, out);
  }
  return out;
}

const accountFields = [...propertyNames(JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi/account.json'), 'utf8')), new Set())].filter(
  (name) => name.includes('_') && !MECHANISM_FIELDS.has(name),
);
const sources = readdirSync(__dirname)
  .filter((f) => f.endsWith('.ts') && f !== path.basename(__filename))
  .map((f) => ({ file: f, text: readFileSync(path.join(__dirname, f), 'utf8') }));

describe('libs/api names no word of the account domain', () => {
  it('reads the account fields from the published document', () => {
    expect(accountFields).toEqual(expect.arrayContaining(['auth_id', 'group_id', 'user_login_id', 'user_pwd_encrypt', 'event_list']));
    console.log(`account field names checked: ${accountFields.length}, in ${sources.length} files of libs/api/src`);
  });

  it('no account field name', () => {
    const found = sources.flatMap(({ file, text }) =>
      accountFields.filter((name) => new RegExp(`\\b${name}\\b`).test(text)).map((name) => `${file}: ${name}`),
    );
    expect(found).toEqual([]);
  });

  it('no account interface and no account-specific code', () => {
    const found = sources.flatMap(({ file, text }) =>
      [
        ...text.matchAll(
          /\bAccountInterface\b|\bAccountCodes\b|\b(?:REGISTER_USER|LIST_USERS|CREATE_AUTH|LIST_GROUPS|AUDIT_EVENTS|LOGIN)\b|(?:rc|resultCode)\(\s*'[1-8]\d{4}'/g,
        ),
      ].map((m) => `${file}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });
});
