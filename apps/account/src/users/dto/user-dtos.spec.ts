import type { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '@geoaccount/api';
import { PATH_ID_FIELDS } from '../../common/account-codes';
import { LoginDto } from '../../login/dto/login.dto';
import { ListUsersQuery } from './list-users.query';
import { ModifyUserDto } from './modify-user.dto';
import { RegisterUserDto } from './register-user.dto';
import { RecordIdPipe } from '../../common/path-id';

const pipe = createValidationPipe({ envelopeFields: PATH_ID_FIELDS });
const as = (metatype: ArgumentMetadata['metatype'], type: ArgumentMetadata['type'] = 'body') => ({ metatype, type });

async function message(value: Record<string, string>, metatype: ArgumentMetadata['metatype']): Promise<string | undefined> {
  try {
    await pipe.transform(value, as(metatype));
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

const minimal = { user_name: 'Alice', user_type: 'C', user_pwd: 'pw' };

describe('RegisterUserDto', () => {
  it('accepts the minimal registration and leaves the signature fields out of the DTO', async () => {
    const signed = { ...minimal, app_token: 'app-1', signature: 'ab', timestamp: '1', nonce: 'n', user_login_id: 'alice' };
    const dto = (await pipe.transform(signed, as(RegisterUserDto))) as RegisterUserDto;
    expect(dto).toEqual(minimal);
    expect(dto).toBeInstanceOf(RegisterUserDto);
  });

  it('refuses an unknown field, naming it (docs/contract.md §13)', async () => {
    expect(await message({ ...minimal, user_id: 'forged' }, RegisterUserDto)).toBe('unknown field user_id');
    expect(await message({ ...minimal, a_very_long_unknown_field_name_x: '1' }, RegisterUserDto)).toBe('unknown field a_very_long_unknow');
  });

  it.each([
    [{ user_type: 'C', user_pwd: 'pw' }, 'missing user_name'],
    [{ ...minimal, user_name: '' }, 'missing user_name'],
    [{ user_name: 'A', user_pwd: 'pw' }, 'missing user_type'],
    [{ user_name: 'A', user_type: 'C' }, 'missing user_pwd'],
    [{ user_name: 'A', user_type: 'C', user_pwd: '', is_domain_user: '0' }, 'missing user_pwd'],
    [{ ...minimal, user_type: 'X' }, 'bad value of user_type'],
    [{ ...minimal, user_type: 'c' }, 'bad value of user_type'],
    [{ ...minimal, is_domain_user: '2' }, 'bad value of is_domain_user'],
    [{ ...minimal, cert_type: '01' }, 'bad value of cert_type'],
    [{ ...minimal, user_extends: '[1]' }, 'invalid user_extends'],
    [{ ...minimal, user_extends: '"text"' }, 'invalid user_extends'],
    [{ ...minimal, user_extends: '{bad' }, 'invalid user_extends'],
    [{ ...minimal, user_extends: 'null' }, 'invalid user_extends'],
    [{ ...minimal, user_auths: 'A1,,A2' }, 'invalid user_auths'],
    [{ ...minimal, user_auth_groups: 'G1, ' }, 'invalid user_auth_groups'],
    [{ ...minimal, org_id: 'a\u0000b' }, 'invalid org_id'],
    [{ ...minimal, org_id: 'ORG\u200b1' }, 'invalid org_id'],
    [{ ...minimal, org_id: 'ＯＲＧ1' }, 'invalid org_id'],
    [{ ...minimal, user_auths: 'A1,A\u200d2' }, 'invalid user_auths'],
    [{ ...minimal, user_auth_groups: 'G\u202e1' }, 'invalid user_auth_groups'],
  ])('refuses %j: %s', async (body, expected) => {
    expect(await message(body, RegisterUserDto)).toBe(expected);
  });

  it('lets a domain account register without a password', async () => {
    expect(await message({ user_name: 'A', user_type: 'B', is_domain_user: '1' }, RegisterUserDto)).toBeUndefined();
    expect(await message({ user_name: 'A', user_type: 'B', is_domain_user: '1', user_pwd: '' }, RegisterUserDto)).toBeUndefined();
  });

  it('accepts every enumerated value and empty optional fields', async () => {
    for (const cert_type of ['00', '10', '11', '']) expect(await message({ ...minimal, cert_type }, RegisterUserDto)).toBeUndefined();
    expect(await message({ ...minimal, user_type: 'B', is_domain_user: '0' }, RegisterUserDto)).toBeUndefined();
    expect(
      await message({ ...minimal, org_id: '', user_extends: '', user_auths: '', user_auth_groups: '' }, RegisterUserDto),
    ).toBeUndefined();
    expect(await message({ ...minimal, user_extends: '{"a":[1,{"b":null}]}' }, RegisterUserDto)).toBeUndefined();
  });

  const limits: [string, number][] = [
    ['org_id', 16],
    ['user_pwd', 64],
    ['user_name', 64],
    ['user_short_name', 32],
    ['cert_id', 32],
    ['cert_id_encrypt', 16],
    ['user_mobile', 16],
    ['user_mobile_encrypt', 16],
    ['user_auths', 512],
    ['user_auth_groups', 512],
  ];
  it.each(limits)('takes %s up to %i characters, counted as code points', async (field, max) => {
    expect(await message({ ...minimal, [field]: 'x'.repeat(max) }, RegisterUserDto)).toBeUndefined();
    expect(await message({ ...minimal, [field]: 'x'.repeat(max + 1) }, RegisterUserDto)).toBe(`too long ${field}`);
    expect(await message({ ...minimal, [field]: '😀'.repeat(max) }, RegisterUserDto)).toBeUndefined();
    expect(await message({ ...minimal, [field]: '🇫🇷'.repeat(max) }, RegisterUserDto)).toBe(`too long ${field}`);
  });

  it.each([
    ['a duplicate key', '{"a":1,"a":2}'],
    ['a duplicate key spelled with an escape', '{"a":1,"\\u0061":2}'],
    ['a duplicate key deeper down', '{"x":[{"k":1,"m":{"n":true,"n":false}}]}'],
    ['a number that is not finite', '{"a":1e999999}'],
    ['a negative number that is not finite', '{"a":[-1e400]}'],
    ['33 levels of nesting', `${'{"a":'.repeat(32)}{}${'}'.repeat(32)}`],
    ['250 levels of nesting', `{"a":${'['.repeat(249)}${']'.repeat(249)}}`],
  ])('refuses user_extends with %s', async (_, user_extends) => {
    expect(await message({ ...minimal, user_extends }, RegisterUserDto)).toBe('invalid user_extends');
    expect(await message({ user_extends }, ModifyUserDto)).toBe('invalid user_extends');
  });

  it.each([
    ['32 levels of nesting', `${'{"a":'.repeat(31)}{}${'}'.repeat(31)}`],
    ['the same key in sibling objects', '{"a":{"k":1},"b":{"k":2},"k":[{"k":0},{"k":0}]}'],
    ['keys that differ only in case or escapes of other characters', '{"a":1,"A":2,"a\\n":3,"a\\\\":4}'],
    ['large finite numbers and strings that look like numbers', '{"a":1.7976931348623157e308,"b":-5e-324,"c":"1e999999","d":0}'],
    ['braces and quotes inside strings', '{"a":"{\\"a\\":1,\\"a\\":2}","b":"[[[["}'],
  ])('accepts user_extends with %s', async (_, user_extends) => {
    expect(await message({ ...minimal, user_extends }, RegisterUserDto)).toBeUndefined();
  });

  it('takes user_extends up to 512 characters', async () => {
    const fill = (n: number) => `{"k":"${'x'.repeat(n - 8)}"}`;
    expect(fill(512)).toHaveLength(512);
    expect(await message({ ...minimal, user_extends: fill(512) }, RegisterUserDto)).toBeUndefined();
    expect(await message({ ...minimal, user_extends: fill(513) }, RegisterUserDto)).toBe('too long user_extends');
  });
});

describe('ModifyUserDto', () => {
  it('accepts an empty modification and empty optional fields', async () => {
    expect(await message({}, ModifyUserDto)).toBeUndefined();
    expect(await message({ org_id: '', cert_type: '', user_extends: '', user_pwd: '' }, ModifyUserDto)).toBeUndefined();
  });

  it('refuses is_domain_user, which cannot be modified', async () => {
    expect(await message({ is_domain_user: '1', user_name: 'B' }, ModifyUserDto)).toBe('unknown field is_domain_user');
  });

  it.each([
    [{ user_name: '' }, 'missing user_name'],
    [{ user_type: '' }, 'missing user_type'],
    [{ user_type: 'Z' }, 'bad value of user_type'],
    [{ user_extends: '1' }, 'invalid user_extends'],
    [{ user_pwd: 'x'.repeat(65) }, 'too long user_pwd'],
  ])('refuses %j: %s', async (body, expected) => {
    expect(await message(body, ModifyUserDto)).toBe(expected);
  });
});

describe('ListUsersQuery', () => {
  it.each([
    [{ page_number: '1', page_size: '1000' }, undefined],
    [{ page_number: '99999999', page_size: '0001' }, undefined],
    [{ page_number: '0' }, 'invalid page_number'],
    [{ page_number: '-1' }, 'invalid page_number'],
    [{ page_number: '1.5' }, 'invalid page_number'],
    [{ page_number: ' 1' }, 'invalid page_number'],
    [{ page_number: '123456789' }, 'too long page_number'],
    [{ page_number: '' }, 'missing page_number'],
    [{ page_size: '1001' }, 'invalid page_size'],
    [{ page_size: '0' }, 'invalid page_size'],
    [{ page_size: 'abc' }, 'invalid page_size'],
    [{ page_size: '1'.padStart(65, '0') }, 'too long page_size'],
    [{ user_login_ids: 'a,,b' }, 'invalid user_login_ids'],
    [{ org_id: 'x'.repeat(17) }, 'too long org_id'],
    [{ org_id: 'ORG\u2060' }, 'invalid org_id'],
  ])('%j → %s', async (query, expected) => {
    expect(await message(query, ListUsersQuery)).toBe(expected);
  });
});

function idMessage(value: unknown): string | undefined {
  try {
    new RecordIdPipe(64).transform(value, { type: 'param', data: 'user_login_id' });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('path and login', () => {
  it('limits user_login_id to 64 characters', async () => {
    expect(idMessage('x'.repeat(64))).toBeUndefined();
    expect(idMessage('x'.repeat(65))).toBe('too long user_login_id');
    expect(idMessage('🇫🇷'.repeat(32))).toBeUndefined();
    expect(idMessage('🇫🇷'.repeat(33))).toBe('too long user_login_id');
  });

  it.each(['a,b', ' lead', 'trail ', 'nul\u0000', 'tab\there', ''])('refuses the login id %j', async (id) => {
    expect(idMessage(id)).toMatch(/^(invalid|missing) user_login_id$/);
  });

  it.each([
    ['a zero-width space', 'admin\u200b'],
    ['a zero-width joiner', 'ad\u200dmin'],
    ['a right-to-left override', 'admin\u202e'],
    ['a byte order mark', '\ufeffadmin'],
    ['a soft hyphen', 'ad\u00admin'],
    ['a Hangul filler', 'admin\u1160'],
    ['a variation selector', 'admin\ufe0f'],
    ['a tag character', 'admin\u{e0061}'],
    ['full-width letters', 'ａｄｍｉｎ'],
    ['a decomposed accent (NFD)', 'jose\u0301'],
    ['a ligature', 'ﬁnance'],
    ['a no-break space', 'ad\u00a0min'],
    ['a lone surrogate', 'admin\ud800'],
  ])('refuses a login id with %s', async (_, id) => {
    expect(idMessage(id)).toBe('invalid user_login_id');
  });

  it('takes ids that are in NFKC without format characters', async () => {
    for (const id of ['admin', 'jos\u00e9', '用户', '🚀🇫🇷', 'a b', 'Ünïcødé']) expect(idMessage(id)).toBeUndefined();
  });

  it('takes SQL metacharacters and unicode in a login id', async () => {
    expect(idMessage(`o'brien"; DROP TABLE users;--%_\\ 用户🚀`)).toBeUndefined();
  });

  it.each([
    [{}, 'missing user_pwd_encrypt'],
    [{ user_pwd_encrypt: 'x'.repeat(257) }, 'too long user_pwd_encrypt'],
    [{ user_pwd_encrypt: 'abc', is_domain_user: 'y' }, 'bad value of is_domain_user'],
    [{ user_pwd_encrypt: 'x'.repeat(256), is_domain_user: '1' }, undefined],
  ])('login %j → %s', async (body, expected) => {
    expect(await message(body, LoginDto)).toBe(expected);
  });
});
