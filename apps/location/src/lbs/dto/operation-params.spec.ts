import { InvalidParameterException } from '@geoaccount/api';
import { checkParams } from '@geoaccount/http';
import { ADDRESS_QUERY, BASE_STATION_QUERY, LBS_QUERY } from './operation-params';

const refusal = (fn: () => unknown): [string, string] | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParameterException);
    const e = err as InvalidParameterException;
    return [e.field, e.reason];
  }
};

const point = { 'param.longitude': '116.397', 'param.latitude': '39.909' };

describe('checkParams', () => {
  it('refuses a parameter the operation does not take, naming it (docs/contract.md §13)', () => {
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, other: 'x' }))).toEqual(['other', 'unknown parameter']);
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.city': '北京' }))).toEqual(['param.city', 'unknown parameter']);
  });

  it('returns the named parameters only, optional ones when given', () => {
    expect(checkParams(LBS_QUERY, { ...point, userToken: 'app-1', signature: 'ab' })).toEqual(point);
    expect(checkParams(LBS_QUERY, { ...point, 'param.merId': 'M-1', 'param.productId': '' })).toEqual({
      ...point,
      'param.merId': 'M-1',
      'param.productId': '',
    });
  });

  it('refuses a required parameter absent or empty as missing', () => {
    expect(refusal(() => checkParams(LBS_QUERY, { 'param.latitude': '1' }))).toEqual(['param.longitude', 'missing']);
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.latitude': '' }))).toEqual(['param.latitude', 'missing']);
  });

  it('refuses a repeated parameter', () => {
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.longitude': ['1', '2'] }))).toEqual(['param.longitude', 'invalid']);
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.merId': ['a', 'b'] }))).toEqual(['param.merId', 'invalid']);
  });

  it("refuses a value holding ':' (it could move text to its neighbour under one signature)", () => {
    expect(refusal(() => checkParams(ADDRESS_QUERY, { 'param.city': '北京市', 'param.address': '长安街1号:D7' }))).toEqual([
      'param.address',
      "':' in",
    ]);
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.busdepId': 'D:7' }))).toEqual(['param.busdepId', "':' in"]);
    expect(checkParams(ADDRESS_QUERY, { 'param.city': '北京市', 'param.address': '长安街1号：2栋' })['param.address']).toBe(
      '长安街1号：2栋',
    );
  });

  it('counts lengths in characters', () => {
    expect(checkParams(LBS_QUERY, { ...point, 'param.merId': '商'.repeat(20) })['param.merId']).toHaveLength(20);
    expect(checkParams(LBS_QUERY, { ...point, 'param.merId': '😀'.repeat(20) })['param.merId']).toHaveLength(40);
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.merId': 'x'.repeat(21) }))).toEqual(['param.merId', 'too long']);
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.longitude': `1.${'0'.repeat(19)}` }))).toEqual([
      'param.longitude',
      'too long',
    ]);
  });

  it('refuses degrees of a wrong form or out of range', () => {
    for (const bad of ['east', '1e2', '0x10', '--1', '1.2.3', ' 1', 'Infinity', 'NaN', '.']) {
      expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.longitude': bad }))).toEqual(['param.longitude', 'invalid']);
    }
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.longitude': '180.0001' }))).toEqual(['param.longitude', 'invalid']);
    expect(refusal(() => checkParams(LBS_QUERY, { ...point, 'param.latitude': '-90.5' }))).toEqual(['param.latitude', 'invalid']);
    for (const good of ['180', '-180', '+0.5', '.5', '5.', '0']) {
      expect(checkParams(LBS_QUERY, { ...point, 'param.longitude': good })['param.longitude']).toBe(good);
    }
  });

  it('refuses cell identifiers that are not digits, naming the first bad one', () => {
    const cell = { 'param.mcc': '460', 'param.mnc': '0', 'param.lac': '4000', 'param.cellid': '10000' };
    expect(checkParams(BASE_STATION_QUERY, cell)).toEqual(cell);
    expect(refusal(() => checkParams(BASE_STATION_QUERY, { ...cell, 'param.lac': '-1', 'param.cellid': 'x' }))).toEqual([
      'param.lac',
      'invalid',
    ]);
    expect(refusal(() => checkParams(BASE_STATION_QUERY, { ...cell, 'param.merId': 'y'.repeat(30), 'param.mcc': '' }))).toEqual([
      'param.merId',
      'too long',
    ]);
  });
});
