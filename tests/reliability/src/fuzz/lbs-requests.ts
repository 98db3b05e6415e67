import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { AppCredential } from '@geoaccount/signing';
import { LBS_OPERATIONS, type LbsOperationName } from '@geoaccount/client';
import { lbsSignedNames, signLbs } from '@geoaccount/signing';
import { type RawAnswer, formEncode, sendRaw } from './http';
import { anyValue, wellFormed } from './values';

export const LBS_AUTH_MODES = [
  'valid',
  'valid-upper-hex',
  'bad-hex',
  'truncated',
  'other-secret',
  'unknown-token',
  'no-token',
  'no-signature',
  'other-operation',
  'tampered',
] as const;
export type LbsAuthMode = (typeof LBS_AUTH_MODES)[number];

export interface LbsFuzzRequest {
  /** An operation, or a name that is none. */
  operation: string;
  method: string;
  /** `param.`-less names with their values, in order; duplicates allowed. */
  params: [string, string][];
  /** Sent as they are (no `param.` prefix added). */
  raw: [string, string][];
  auth: LbsAuthMode;
  /** For POST/PUT: how the body is sent (the parameters stay in the query string). */
  body: 'none' | 'urlencoded' | 'multipart-broken' | 'json' | 'garbage';
  rawQuery: string;
}

/** Mostly well-formed values, some edge cases, some junk. */
const choice = (good: string[], edge: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...good) },
    { weight: 1, arbitrary: fc.constantFrom(...edge) },
    { weight: 1, arbitrary: anyValue },
  );
const DEGREE_EDGES = ['1e2', ' 116.4', '116,4', 'NaN', 'Infinity', '0x10', '.5', '5.', '+1', '--1', '0'.repeat(21)];

const PARAM_VALUES: Record<string, fc.Arbitrary<string>> = {
  longitude: choice(
    ['116.397', '121.4737', '113.2644', '2.3522', '-74.006', '139.6917', '0', '180', '-180', '+116.40'],
    ['180.000001', '-181', ...DEGREE_EDGES],
  ),
  latitude: choice(
    ['39.9087', '31.2304', '23.1291', '48.8566', '40.7128', '35.6895', '0', '90', '-90', '39.90870'],
    ['90.000001', '-91', ...DEGREE_EDGES],
  ),
  city: choice(['北京市', '北京', '上海', '深圳市', 'ｂｅｉｊｉｎｇ', '广州市'], ['a'.repeat(256), ' ', '']),
  address: choice(['长安街1号', '浦东新区', '天安门', '深南大道6008号', ' 东城区 '], ['a'.repeat(256), ' ', '']),
  mcc: choice(['460', '0460'], ['1'.repeat(21), '-460', '46O', '']),
  mnc: choice(['0', '00', '1', '11'], ['-1', '']),
  lac: choice(['4000', '20000', '1', '9'.repeat(20)], ['9'.repeat(21), '4000.0', '']),
  cellid: choice(['10000', '10001', '102400001', '99999', '9'.repeat(20)], ['1e5', '']),
  productId: choice(['P001', ''], ['p'.repeat(21)]),
  busdepId: choice(['B001', ''], ['b'.repeat(21)]),
  merId: choice(['M001', ''], ['m'.repeat(21)]),
};

const OPERATIONS = Object.keys(LBS_OPERATIONS) as LbsOperationName[];

function operationRequest(op: string, own: readonly string[]): fc.Arbitrary<LbsFuzzRequest> {
  const params = fc
    .subarray([...own])
    .chain((chosen) =>
      chosen.length
        ? fc.tuple(...chosen.map((n) => PARAM_VALUES[n]!.map((v): [string, string] => [n, v])))
        : fc.constant([] as [string, string][]),
    );
  // Most requests carry every own parameter, so that many get past validation.
  const full = fc.tuple(...own.map((n) => PARAM_VALUES[n]!.map((v): [string, string] => [n, v])));
  return fc
    .record({
      params: fc.oneof({ weight: 3, arbitrary: full }, { weight: 1, arbitrary: params }),
      business: fc
        .subarray(['productId', 'busdepId', 'merId'])
        .chain((b) =>
          b.length
            ? fc.tuple(...b.map((n) => PARAM_VALUES[n]!.map((v): [string, string] => [n, v])))
            : fc.constant([] as [string, string][]),
        ),
      raw: fc.oneof(
        { weight: 4, arbitrary: fc.constant([] as [string, string][]) },
        {
          weight: 1,
          arbitrary: fc.array(
            fc.tuple(
              fc.oneof(
                fc.constantFrom('userToken', 'signature', 'param.', 'param.x', 'param.longitude', 'x', 'param[longitude]'),
                fc.string({ maxLength: 12 }).map(wellFormed),
              ),
              anyValue,
            ),
            { minLength: 1, maxLength: 2 },
          ),
        },
      ),
      duplicate: fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.nat(), anyValue) }),
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant('GET') },
        { weight: 1, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH') },
      ),
      auth: fc.oneof(
        { weight: 10, arbitrary: fc.constant<LbsAuthMode>('valid') },
        { weight: 5, arbitrary: fc.constantFrom(...LBS_AUTH_MODES) },
      ),
      body: fc.constantFrom<LbsFuzzRequest['body']>('none', 'urlencoded', 'multipart-broken', 'json', 'garbage'),
      rawQuery: fc.oneof(
        { weight: 12, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom('&%ZZ', '&param.city=%E0%A4', '&&&', '&=', '&param.longitude=1', '&userToken=', '&a=%00') },
      ),
    })
    .map(({ params: p, business, raw, duplicate, method, auth, body, rawQuery }) => {
      const all: [string, string][] = [...p, ...business];
      if (duplicate && all.length) all.push([all[duplicate[0] % all.length]![0], duplicate[1]]);
      return { operation: op, method, params: all, raw, auth, body, rawQuery };
    });
}

/** A request to one of the three operations, or to an operation that does not exist. */
export const lbsRequest: fc.Arbitrary<LbsFuzzRequest> = fc.oneof(
  ...OPERATIONS.map((op) => ({ weight: 6, arbitrary: operationRequest(op, LBS_OPERATIONS[op]) })),
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom('', 'lbsquery', 'LbsQuery', 'query', '..', 'lbsQuery/x'), anyValue),
        operationRequest('lbsQuery', LBS_OPERATIONS.lbsQuery),
      )
      .map(([op, r]) => ({ ...r, operation: op })),
  },
);

/** Sends a generated request as `app` (`other`: another registered app). */
export async function sendLbsRequest(baseUrl: string, r: LbsFuzzRequest, app: AppCredential, other: AppCredential): Promise<RawAnswer> {
  const known = (name: string): name is LbsOperationName => (OPERATIONS as string[]).includes(name);
  const op = known(r.operation) ? r.operation : 'lbsQuery';
  const values: Record<string, string> = {};
  for (const [k, v] of r.params) if (!(k in values)) values[k] = v;
  const signOp = r.auth === 'other-operation' ? (op === 'lbsQuery' ? 'addressQuery' : 'lbsQuery') : r.operation;
  const signValues = r.auth === 'tampered' ? { ...values, merId: `${values.merId ?? ''}x` } : values;
  const names = lbsSignedNames(LBS_OPERATIONS[known(signOp) ? signOp : op]);
  let signature: string | undefined = signLbs(r.auth === 'other-secret' ? other.secret : app.secret, signOp, names, signValues);
  if (r.auth === 'valid-upper-hex') signature = signature.toUpperCase();
  if (r.auth === 'bad-hex') signature = randomBytes(32).toString('hex');
  if (r.auth === 'truncated') signature = signature.slice(1);
  if (r.auth === 'no-signature') signature = undefined;
  const token = r.auth === 'unknown-token' ? 'app-00000000000000ff' : r.auth === 'no-token' ? undefined : app.appToken;

  const query: [string, string][] = r.params.map(([k, v]) => [`param.${k}`, v]);
  if (token !== undefined) query.push(['userToken', token]);
  if (signature !== undefined) query.push(['signature', signature]);
  query.push(...r.raw);
  const path = `/lbsapi/api/${encodeURIComponent(r.operation)}?${formEncode(query)}${r.rawQuery}`;
  if (r.method === 'GET' || r.body === 'none') return sendRaw(baseUrl, r.method, path);
  switch (r.body) {
    case 'urlencoded':
      return sendRaw(baseUrl, r.method, path, formEncode(query), 'application/x-www-form-urlencoded');
    case 'multipart-broken':
      return sendRaw(
        baseUrl,
        r.method,
        path,
        '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nunfinished',
        'multipart/form-data; boundary=b',
      );
    case 'json':
      return sendRaw(baseUrl, r.method, path, JSON.stringify(Object.fromEntries(query)), 'application/json');
    case 'garbage':
      return sendRaw(baseUrl, r.method, path, randomBytes(64), 'application/octet-stream');
  }
}
