import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { AppCredential } from '@geoaccount/signing';
import { deriveAesKey, encryptPassword, signAccount } from '@geoaccount/signing';
import { APP_B } from '../apps';
import { certId, mobile, password } from '../sentinels';
import { type RawAnswer, formEncode, sendRaw } from './http';
import { anyValue, plausible, wellFormed } from './values';

/** How a generated request is signed (or not). */
export const AUTH_MODES = [
  'valid',
  'valid-upper-hex',
  'bad-hex',
  'truncated',
  'other-secret',
  'unknown-app',
  'stale-timestamp',
  'future-timestamp',
  'no-timestamp',
  'bad-timestamp',
  'no-signature',
  'no-app-token',
  'moved-path-id',
  'long-nonce',
] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** How a POST/PUT body is encoded (GET sends a query string). */
export const ENCODINGS = ['urlencoded', 'multipart', 'broken-multipart', 'multipart-no-boundary', 'json', 'garbage', 'none'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export interface AccountFuzzRequest {
  endpoint: string;
  method: string;
  /** Path segments after /account/v1.0.1; ids as decoded strings. */
  segments: string[];
  /** Path ids by signed field name (decoded). */
  pathIds: Record<string, string>;
  /** Fields in order, duplicates allowed. */
  fields: [string, string][];
  auth: AuthMode;
  nonce: boolean;
  encoding: Encoding;
  /** Appended raw to the query string (unsigned, possibly malformed percent-encoding). */
  rawQuery: string;
}

const AUTH_IDS = ['A1', 'A2', 'A3', 'A4'];
const GROUP_IDS = ['G1', 'G2', 'G3'];
const USER_IDS = ['u1', 'u2', 'u3'];

const id = (pool: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...pool) },
    { weight: 2, arbitrary: anyValue },
    { weight: 1, arbitrary: fc.constantFrom('login', 'auths', '..', '.', 'a/b', 'a?b', 'a#b', '%2F', ' ') },
  );
const idList = (pool: string[]) =>
  fc.oneof(
    fc.subarray(pool).map((l) => l.join(',')),
    anyValue,
  );
const encryptFor = (app: AppCredential, pwd: string) => encryptPassword(pwd, deriveAesKey(app.aesKey), app.aesMode ?? 'gcm');
const ENC_RIGHT = '<encrypted: right password>';
const ENC_WRONG = '<encrypted: wrong password>';
const ENC_FOREIGN = '<encrypted with another app key>';

const FIELD_VALUES: Record<string, fc.Arbitrary<string>> = {
  auth_name: plausible('Orders', '订单', 'x'),
  auth_desc: plausible('desc', ''),
  auth_state: plausible('0', '1'),
  auth_type: plausible('menu', 'api', ''),
  auth_level: plausible('1', '2', '10'),
  parent_auth_id: fc.oneof(fc.constantFrom('', ...AUTH_IDS), anyValue),
  sub_auth_flag: plausible('0', '1'),
  auth_ids: idList(AUTH_IDS),
  group_name: plausible('Admins', '管理员'),
  group_desc: plausible('desc', ''),
  group_type: plausible('role', ''),
  group_state: plausible('0', '1'),
  group_auths: idList(AUTH_IDS),
  group_ids: idList(GROUP_IDS),
  org_id: plausible('ORG1', ''),
  user_pwd: plausible(password('fuzz'), password('other')),
  user_name: plausible('张三', 'Alice'),
  user_short_name: plausible('zs', ''),
  user_type: plausible('C', 'B'),
  is_domain_user: plausible('0', '1'),
  cert_type: plausible('00', '10', '11'),
  cert_id: fc.oneof(fc.nat(999).map(certId), anyValue),
  cert_id_encrypt: plausible('x1y2', ''),
  user_mobile: fc.oneof(fc.nat(9999).map(mobile), anyValue),
  user_mobile_encrypt: plausible('m1m2', ''),
  user_auths: idList(AUTH_IDS),
  user_auth_groups: idList(GROUP_IDS),
  user_extends: plausible('{}', '{"dept":"ops"}', '[]'),
  page_number: plausible('1', '2', '0'),
  page_size: plausible('1', '20', '1000', '1001'),
  user_login_ids: idList(USER_IDS),
  // Placeholders for ciphertexts made at send time with the sending app's key (or another's).
  user_pwd_encrypt: fc.oneof(fc.constantFrom(ENC_RIGHT, ENC_WRONG, ENC_FOREIGN), anyValue, fc.base64String({ maxLength: 80 })),
};

const AUTH_FIELDS = ['auth_name', 'auth_desc', 'auth_state', 'auth_type', 'auth_level', 'parent_auth_id', 'sub_auth_flag'];
const GROUP_FIELDS = ['group_name', 'group_desc', 'group_type', 'group_state', 'group_auths'];
const USER_FIELDS = [
  'org_id',
  'user_pwd',
  'user_name',
  'user_short_name',
  'user_type',
  'is_domain_user',
  'cert_type',
  'cert_id',
  'cert_id_encrypt',
  'user_mobile',
  'user_mobile_encrypt',
  'user_auths',
  'user_auth_groups',
  'user_extends',
];

interface Endpoint {
  name: string;
  method: string;
  segments: fc.Arbitrary<{ segments: string[]; pathIds: Record<string, string> }>;
  fields: string[];
}

const one = (head: string[], name: string, pool: string[], tail: string[] = []) =>
  id(pool).map((v) => ({ segments: [...head, v, ...tail], pathIds: { [name]: v } }));
const fixed = (...segments: string[]) => fc.constant({ segments, pathIds: {} as Record<string, string> });

const ENDPOINTS: Endpoint[] = [
  { name: 'createAuth', method: 'POST', segments: one(['auths'], 'auth_id', AUTH_IDS), fields: AUTH_FIELDS },
  { name: 'modifyAuth', method: 'PUT', segments: one(['auths'], 'auth_id', AUTH_IDS), fields: AUTH_FIELDS },
  {
    name: 'listAuths',
    method: 'GET',
    segments: fixed('auths'),
    fields: ['auth_ids', 'auth_state', 'auth_type', 'auth_level', 'parent_auth_id'],
  },
  { name: 'getAuth', method: 'GET', segments: one(['auths'], 'auth_id', AUTH_IDS), fields: [] },
  { name: 'createGroup', method: 'POST', segments: one(['authgroups'], 'group_id', GROUP_IDS), fields: GROUP_FIELDS },
  { name: 'modifyGroup', method: 'PUT', segments: one(['authgroups'], 'group_id', GROUP_IDS), fields: GROUP_FIELDS },
  { name: 'listGroups', method: 'GET', segments: fixed('authgroups'), fields: ['group_ids'] },
  { name: 'getGroup', method: 'GET', segments: one(['authgroups'], 'group_id', GROUP_IDS), fields: [] },
  { name: 'registerUser', method: 'POST', segments: one(['users'], 'user_login_id', USER_IDS), fields: USER_FIELDS },
  {
    name: 'modifyUser',
    method: 'PUT',
    segments: one(['users'], 'user_login_id', USER_IDS),
    fields: USER_FIELDS.filter((f) => f !== 'is_domain_user'),
  },
  { name: 'listUsers', method: 'GET', segments: fixed('users'), fields: ['page_number', 'page_size', 'user_login_ids', 'org_id'] },
  { name: 'getUser', method: 'GET', segments: one(['users'], 'user_login_id', USER_IDS), fields: [] },
  {
    name: 'login',
    method: 'POST',
    segments: one(['users', 'login'], 'user_login_id', USER_IDS),
    fields: ['user_pwd_encrypt', 'is_domain_user'],
  },
  { name: 'userAuths', method: 'GET', segments: one(['users'], 'user_login_id', USER_IDS, ['auths']), fields: [] },
  {
    name: 'userHasAuth',
    method: 'GET',
    segments: fc
      .tuple(id(USER_IDS), id(AUTH_IDS))
      .map(([u, a]) => ({ segments: ['users', u, 'auths', a], pathIds: { user_login_id: u, auth_id: a } })),
    fields: [],
  },
];

const EXTRA_NAMES = fc.oneof(
  fc.constantFrom(
    'timestamp',
    'nonce',
    'app_token',
    'signature',
    'auth_id',
    'group_id',
    'user_login_id',
    'user_pwd',
    '__proto__',
    'a[b]',
    'x',
  ),
  fc.string({ maxLength: 12 }).map(wellFormed),
);

function endpointRequest(e: Endpoint): fc.Arbitrary<AccountFuzzRequest> {
  const fieldPairs = fc
    .subarray(e.fields)
    .chain((names) =>
      names.length
        ? fc.tuple(...names.map((n) => FIELD_VALUES[n]!.map((v): [string, string] => [n, v])))
        : fc.constant([] as [string, string][]),
    );
  return fc
    .record({
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant(e.method) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH') },
      ),
      path: e.segments,
      fields: fieldPairs,
      extras: fc.oneof(
        { weight: 4, arbitrary: fc.constant([] as [string, string][]) },
        { weight: 1, arbitrary: fc.array(fc.tuple(EXTRA_NAMES, anyValue), { minLength: 1, maxLength: 2 }) },
      ),
      duplicate: fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.nat(), anyValue) }),
      auth: fc.oneof({ weight: 14, arbitrary: fc.constant<AuthMode>('valid') }, { weight: 13, arbitrary: fc.constantFrom(...AUTH_MODES) }),
      nonce: fc.boolean(),
      encoding: fc.oneof(
        { weight: 8, arbitrary: fc.constant<Encoding>('urlencoded') },
        { weight: 6, arbitrary: fc.constantFrom(...ENCODINGS) },
      ),
      rawQuery: fc.oneof(
        { weight: 12, arbitrary: fc.constant('') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '&%ZZ',
            '&a=%E0%A4',
            '&&&',
            '&=',
            '&timestamp=1',
            '&signature=',
            `&app_token=${APP_B.appToken}`,
            '&a=%00',
          ),
        },
      ),
    })
    .map(({ method, path, fields, extras, duplicate, auth, nonce, encoding, rawQuery }) => {
      const all: [string, string][] = [...fields, ...extras];
      if (duplicate && all.length) {
        const [at, value] = duplicate;
        all.push([all[at % all.length]![0], value]);
      }
      return { endpoint: e.name, method, segments: path.segments, pathIds: path.pathIds, fields: all, auth, nonce, encoding, rawQuery };
    });
}

/** A request to one of the account endpoints, or to a route that does not exist. */
export const accountRequest: fc.Arbitrary<AccountFuzzRequest> = fc.oneof(
  ...ENDPOINTS.map((e) => ({ weight: 4, arbitrary: endpointRequest(e) })),
  {
    weight: 1,
    arbitrary: fc
      .record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        segments: fc.array(fc.oneof(fc.constantFrom('auths', 'authgroups', 'users', 'login', 'auths', ''), anyValue), {
          minLength: 0,
          maxLength: 5,
        }),
      })
      .map(({ method, segments }): AccountFuzzRequest => ({
        endpoint: 'unknown-route',
        method,
        segments,
        pathIds: {},
        fields: [],
        auth: 'valid',
        nonce: false,
        encoding: 'urlencoded',
        rawQuery: '',
      })),
  },
);

function encodeSegment(s: string): string {
  return encodeURIComponent(s);
}

function multipart(pairs: [string, string][], boundary: string): string {
  const esc = (n: string) => n.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const parts = pairs.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${esc(k)}"\r\n\r\n${v}\r\n`);
  return `${parts.join('')}--${boundary}--\r\n`;
}

/** Sends a generated request to the account service at `baseUrl` as `app` (`other`: a foreign app). */
export async function sendAccountRequest(
  baseUrl: string,
  r: AccountFuzzRequest,
  app: AppCredential,
  other: AppCredential,
): Promise<RawAnswer> {
  const now = Math.floor(Date.now() / 1000);
  const cipher: Record<string, string> = {
    [ENC_RIGHT]: encryptFor(app, password('fuzz')),
    [ENC_WRONG]: encryptFor(app, password('other')),
    [ENC_FOREIGN]: encryptFor(other, password('fuzz')),
  };
  const params: [string, string][] = r.fields.map(([k, v]) => [k, cipher[v] ?? v]);
  const ts =
    r.auth === 'stale-timestamp'
      ? now - 3600
      : r.auth === 'future-timestamp'
        ? now + 3600
        : r.auth === 'bad-timestamp'
          ? 'soon'
          : r.auth === 'no-timestamp'
            ? undefined
            : now;
  if (ts !== undefined) params.push(['timestamp', String(ts)]);
  if (r.nonce || r.auth === 'long-nonce')
    params.push(['nonce', r.auth === 'long-nonce' ? 'n'.repeat(65) : randomBytes(12).toString('hex')]);

  const signed: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in signed)) signed[k] = v;
  for (const [k, v] of Object.entries(r.pathIds)) signed[k] = r.auth === 'moved-path-id' ? `${v}x` : v;
  const secret = r.auth === 'other-secret' ? other.secret : app.secret;
  const path = `/account/v1.0.1/${r.segments.map(encodeSegment).join('/')}`;
  let signature: string | undefined = signAccount(secret, r.method, app.appToken, path, signed);
  if (r.auth === 'valid-upper-hex') signature = signature.toUpperCase();
  if (r.auth === 'bad-hex') signature = randomBytes(32).toString('hex');
  if (r.auth === 'truncated') signature = signature.slice(0, 63);
  if (r.auth === 'no-signature') signature = undefined;
  const appToken = r.auth === 'unknown-app' ? 'app-0000000000000000' : r.auth === 'no-app-token' ? undefined : app.appToken;

  const sent: [string, string][] = [...params];
  if (appToken !== undefined) sent.push(['app_token', appToken]);
  if (signature !== undefined) sent.push(['signature', signature]);

  if (r.method === 'GET' || r.method === 'DELETE') {
    const qs = formEncode(sent) + r.rawQuery;
    return sendRaw(baseUrl, r.method, qs ? `${path}?${qs}` : path);
  }
  const target = r.rawQuery ? `${path}?${r.rawQuery.slice(1)}` : path;
  const boundary = `----rel${randomBytes(6).toString('hex')}`;
  switch (r.encoding) {
    case 'urlencoded':
      return sendRaw(baseUrl, r.method, target, formEncode(sent), 'application/x-www-form-urlencoded');
    case 'multipart':
      return sendRaw(baseUrl, r.method, target, multipart(sent, boundary), `multipart/form-data; boundary=${boundary}`);
    case 'broken-multipart': {
      const body = multipart(sent, boundary);
      return sendRaw(
        baseUrl,
        r.method,
        target,
        body.slice(0, Math.max(1, Math.floor(body.length / 2))),
        `multipart/form-data; boundary=${boundary}`,
      );
    }
    case 'multipart-no-boundary':
      return sendRaw(baseUrl, r.method, target, multipart(sent, boundary), 'multipart/form-data');
    case 'json':
      return sendRaw(baseUrl, r.method, target, JSON.stringify(Object.fromEntries(sent)), 'application/json');
    case 'garbage':
      return sendRaw(baseUrl, r.method, target, randomBytes(64), 'application/x-www-form-urlencoded');
    case 'none':
      return sendRaw(baseUrl, r.method, target);
  }
}
