import { nameForms, nameStem, normalizeText } from './admin-names';

describe('administrative name forms', () => {
  it.each([
    ['北京市', ['北京市', '北京']],
    ['广西壮族自治区', ['广西壮族自治区', '广西', '广西壮族']],
    ['内蒙古自治区', ['内蒙古自治区', '内蒙古']],
    ['新疆维吾尔自治区', ['新疆维吾尔自治区', '新疆', '新疆维吾尔']],
    ['香港特别行政区', ['香港特别行政区', '香港']],
    ['浦东新区', ['浦东新区', '浦东']],
    ['延边朝鲜族自治州', ['延边朝鲜族自治州', '延边', '延边朝鲜族']],
    ['恩施土家族苗族自治州', ['恩施土家族苗族自治州', '恩施', '恩施土家族苗族']],
    ['孟村回族自治县', ['孟村回族自治县', '孟村', '孟村回族']],
    ['鄂伦春自治旗', ['鄂伦春自治旗', '鄂伦春']],
    ['大兴安岭地区', ['大兴安岭地区', '大兴安岭']],
    ['锡林郭勒盟', ['锡林郭勒盟', '锡林郭勒']],
    ['朝阳区', ['朝阳区', '朝阳']],
    ['河北省', ['河北省', '河北']],
  ])('%s → %j', (name, forms) => {
    expect(nameForms(name)).toEqual(forms);
  });

  it('keeps one-character stems out (城区, 沙县, 横县)', () => {
    expect(nameForms('城区')).toEqual(['城区']);
    expect(nameForms('沙县')).toEqual(['沙县']);
    expect(nameForms('横县')).toEqual(['横县']);
  });

  it('gives old and new names of one county the same stem', () => {
    expect(nameStem('潜山县')).toBe(nameStem('潜山市'));
    expect(nameStem('沙县')).toBe(nameStem('沙县区'));
    expect(nameStem('桥东区')).not.toBe(nameStem('襄都区'));
  });

  it('normalises spaces and full-width characters', () => {
    expect(normalizeText(' 北京 市\u3000长安街１号 ')).toBe('北京市长安街1号');
  });
});
