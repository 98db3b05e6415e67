import { join } from 'node:path';
import { OpenApiResponseValidator } from './openapi-responses';

const DOCS = join(__dirname, '../../../docs/openapi');

/** A user as the account service answers it (GET /users/{user_login_id}, 200). */
function userAnswer(): Record<string, unknown> {
  return {
    response_code: '90000',
    response_message: 'success',
    user_id: 'b3f3c1de-4c2a-4d6e-8a44-6f0c8f1f1a01',
    user_login_id: 'alice',
    org_id: null,
    user_pwd: null,
    user_pwd_encrypt: null,
    user_name: 'Alice',
    user_short_name: null,
    user_type: 'C',
    is_domain_user: '0',
    cert_type: null,
    cert_id: null,
    cert_id_encrypt: null,
    user_mobile: null,
    user_mobile_encrypt: null,
    user_auths: 'A1,A2',
    user_auth_groups: null,
    user_extends: null,
  };
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

describe('OpenApiResponseValidator (account document)', () => {
  const validator = OpenApiResponseValidator.fromFile(join(DOCS, 'account.json'));
  const getUser = (body: unknown, status = 200, headers: Record<string, string> = JSON_HEADERS) => ({
    method: 'GET',
    url: 'http://127.0.0.1:3001/account/v1.0.1/users/alice?timestamp=1&app_token=app-1&signature=x',
    status,
    headers,
    body,
  });

  it('accepts an answer that matches its schema', () => {
    expect(validator.problems(getUser(userAnswer()))).toEqual([]);
    expect(() => validator.check(getUser(userAnswer()))).not.toThrow();
  });

  it.each(Object.keys(userAnswer()))('refuses the answer without %s', (field) => {
    const body = userAnswer();
    delete body[field];
    expect(validator.problems(getUser(body))).toEqual([expect.stringContaining(`must have required property '${field}'`)]);
    expect(() => validator.check(getUser(body))).toThrow(/does not match the OpenAPI document/);
  });

  it('refuses a field the answer does not document, a wrong type and a code of another status', () => {
    expect(validator.problems(getUser({ ...userAnswer(), user_secret: 'x' }))).toEqual([
      expect.stringContaining('must NOT have additional properties ("user_secret")'),
    ]);
    expect(validator.problems(getUser({ ...userAnswer(), user_pwd: 'hash' }))).toEqual([expect.stringContaining('/user_pwd must be null')]);
    expect(validator.problems(getUser({ ...userAnswer(), response_code: '20301' }))).not.toEqual([]);
  });

  it('refuses an undocumented status and an undocumented content type', () => {
    expect(validator.problems(getUser({ response_code: '90000', response_message: 'x' }, 418))).toEqual([
      expect.stringContaining('status not documented'),
    ]);
    expect(validator.problems(getUser(userAnswer(), 200, { 'content-type': 'text/html' }))).toEqual([
      expect.stringContaining('content-type "text/html" not documented'),
    ]);
  });

  it('checks error answers against the envelope and the codes of their status', () => {
    const missing = getUser({ response_code: '20301', response_message: 'query succeeded, no data' }, 404);
    expect(validator.problems(missing)).toEqual([]);
    expect(validator.problems({ ...missing, body: { response_code: '20301' } })).not.toEqual([]);
    expect(validator.problems({ ...missing, body: { response_code: '10301', response_message: 'x' } })).not.toEqual([]);
  });

  it('prefers a literal path segment over a template and skips paths the document does not list', () => {
    expect(validator.route('POST', '/account/v1.0.1/users/login/alice')).toBe('/account/v1.0.1/users/login/{user_login_id}');
    expect(validator.route('GET', '/account/v1.0.1/users/alice/auths')).toBe('/account/v1.0.1/users/{user_login_id}/auths');
    expect(validator.problems({ method: 'GET', url: '/account/v1.0.1/nowhere', status: 404, headers: {}, body: {} })).toBeUndefined();
    expect(
      validator.problems({ method: 'DELETE', url: '/account/v1.0.1/users/alice', status: 405, headers: {}, body: {} }),
    ).toBeUndefined();
  });
});

describe('OpenApiResponseValidator (location document)', () => {
  const validator = OpenApiResponseValidator.fromFile(join(DOCS, 'location.json'));
  const answer = {
    code: '000',
    resultDesc: 'success',
    lbsStat: '1',
    longitude: '121.5',
    latitude: '31.2',
    standardCode: '310115',
  };
  const res = (body: unknown, status = 200) => ({
    method: 'GET',
    url: '/lbsapi/api/addressQuery?x=1',
    status,
    headers: JSON_HEADERS,
    body,
  });

  it('accepts a complete answer and refuses one without a field', () => {
    expect(validator.problems(res(answer))).toEqual([]);
    const { standardCode: _, ...without } = answer;
    expect(validator.problems(res(without))).toEqual([expect.stringContaining("required property 'standardCode'")]);
  });

  it('refuses a failure with lbsStat other than "0"', () => {
    expect(validator.problems(res({ code: '099', resultDesc: 'nothing found', lbsStat: '0' }, 404))).toEqual([]);
    expect(validator.problems(res({ code: '099', resultDesc: 'nothing found', lbsStat: '1' }, 404))).not.toEqual([]);
  });
});
