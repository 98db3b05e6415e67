import { ANSWER_FIELDS, checkCachedFields } from './lbs.service';

describe('checkCachedFields (docs/contract.md §13)', () => {
  const good = { longitude: '116.4', latitude: '39.9', standardCode: '110101' };

  it('accepts exactly the operation\'s string fields, in any order, and answers them in the answer\'s order', () => {
    expect(checkCachedFields('addressQuery', JSON.stringify(good))).toEqual(good);
    const reordered = checkCachedFields('addressQuery', JSON.stringify({ standardCode: '110101', latitude: '39.9', longitude: '116.4' }));
    expect(Object.keys(reordered!)).toEqual([...ANSWER_FIELDS.addressQuery]);
  });

  it.each([
    ['duplicate keys', `{"longitude":"116.4","latitude":"39.9","standardCode":"110101","standardCode":"999999"}`],
    ['an envelope field', JSON.stringify({ ...good, resultDesc: 'x' })],
    ['__proto__', `{"longitude":"116.4","latitude":"39.9","__proto__":"x"}`],
    ['null', JSON.stringify({ ...good, standardCode: null })],
    ['a number', JSON.stringify({ ...good, standardCode: 110101 })],
    ['a nested object', JSON.stringify({ ...good, standardCode: { a: '1' } })],
    ['a control character', JSON.stringify({ ...good, standardCode: '1\n2' })],
    ['a field missing', JSON.stringify({ longitude: '1', latitude: '2' })],
    ['another operation\'s fields', JSON.stringify({ ...good, provinceName: 'x' })],
    ['an array', '[]'],
    ['null itself', 'null'],
    ['not JSON', '{'],
  ])('refuses %s', (_what, text) => {
    expect(checkCachedFields('addressQuery', text)).toBeUndefined();
  });
});
