import { InvalidParameterException } from '@geoaccount/api';
import { parseIdList } from './id-list';

describe('parseIdList', () => {
  it('splits, trims and deduplicates, keeping the order', () => {
    expect(parseIdList('B2, A1,B2 ,C3', 'group_auths')).toEqual(['B2', 'A1', 'C3']);
  });

  it('reads an absent or empty value as no ids', () => {
    expect(parseIdList(undefined, 'auth_ids')).toEqual([]);
    expect(parseIdList('', 'auth_ids')).toEqual([]);
  });

  it('refuses an empty item, naming the field', () => {
    expect(() => parseIdList('A1,,B2', 'group_auths')).toThrow(new InvalidParameterException('group_auths', 'empty item in'));
    expect(() => parseIdList('A1,', 'auth_ids')).toThrow(/empty item in auth_ids/);
  });

  it('refuses an item with a NUL character, naming the field', () => {
    expect(() => parseIdList('A1,B\u00002', 'group_ids')).toThrow(new InvalidParameterException('group_ids'));
  });

  it.each(['A1,A1\u200b', 'A1,\u202eA1', 'ＡＢ', 'jose\u0301', 'A1\ufe0f', 'A1\ufeff', 'A1,\u00a0A2'])(
    'refuses %j: an item that only looks like an id',
    (list) => {
      expect(() => parseIdList(list, 'user_auths')).toThrow(new InvalidParameterException('user_auths'));
    },
  );

  it('only splits a list read back from the database', () => {
    expect(parseIdList('A1, jose\u0301,A1', 'user_auths', true)).toEqual(['A1', 'jose\u0301']);
  });
});
