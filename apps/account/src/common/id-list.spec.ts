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
});
