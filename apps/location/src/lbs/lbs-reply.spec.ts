import fc from 'fast-check';
import { addressFields, lbsReply } from './lbs.service';

/** Field names as the answers have them: letters, never an envelope field's name. */
const fieldName = fc.stringMatching(/^[a-zA-Z]{1,12}$/).filter((name) => !['code', 'resultDesc', 'lbsStat'].includes(name));

describe('lbsReply', () => {
  it('writes the bytes JSON.stringify writes for the answer object, from the fields serialised once', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.dictionary(fieldName, fc.string({ unit: 'grapheme' })), (fromCache, fields) => {
        const reply = lbsReply(fromCache, fields, JSON.stringify(fields));
        expect(reply.text).toBe(JSON.stringify(reply.value));
        expect(JSON.parse(reply.text)).toEqual(reply.value);
        expect(reply.value).toMatchObject(fromCache ? { code: '000', lbsStat: '2' } : { code: '000', lbsStat: '1' });
      }),
    );
  });

  it('answers an address with its envelope first, and no fields at all as the envelope alone', () => {
    const fields = addressFields({ provinceName: '北京市', areaName: '东城区', address: '北京市东城区 "1号"' } as never);
    const reply = lbsReply(false, fields, JSON.stringify(fields));
    expect(reply.text.startsWith('{"code":"000","resultDesc":')).toBe(true);
    expect(JSON.parse(reply.text)).toEqual({ code: '000', resultDesc: reply.value.resultDesc, lbsStat: '1', ...fields });
    expect(lbsReply(true, {}, '{}').text).toBe('{"code":"000","resultDesc":"success (cache)","lbsStat":"2"}');
  });
});
