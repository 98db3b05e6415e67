/**
 * Short forms of Chinese administrative division names: 北京市 → 北京, 广西壮族自治区 → 广西,
 * 浦东新区 → 浦东, 延边朝鲜族自治州 → 延边, 鄂伦春自治旗 → 鄂伦春, 大兴安岭地区 → 大兴安岭.
 */

/** Generic suffixes, longest first: one is removed from the end of a name. */
const SUFFIXES = [
  '特别行政区',
  '行政委员会',
  '自治区',
  '自治州',
  '自治县',
  '自治旗',
  '地区',
  '新区',
  '林区',
  '特区',
  '矿区',
  '省',
  '市',
  '区',
  '县',
  '旗',
  '盟',
] as const;

/** The ethnic minorities' names as they appear in autonomous division names. */
const ETHNIC = [
  '蒙古',
  '回',
  '藏',
  '维吾尔',
  '苗',
  '彝',
  '壮',
  '布依',
  '朝鲜',
  '满',
  '侗',
  '瑶',
  '白',
  '土家',
  '哈尼',
  '哈萨克',
  '傣',
  '黎',
  '傈僳',
  '佤',
  '畲',
  '高山',
  '拉祜',
  '水',
  '东乡',
  '纳西',
  '景颇',
  '柯尔克孜',
  '土',
  '达斡尔',
  '仫佬',
  '羌',
  '布朗',
  '撒拉',
  '毛南',
  '仡佬',
  '锡伯',
  '阿昌',
  '普米',
  '塔吉克',
  '怒',
  '乌孜别克',
  '俄罗斯',
  '鄂温克',
  '德昂',
  '保安',
  '裕固',
  '京',
  '塔塔尔',
  '独龙',
  '鄂伦春',
  '赫哲',
  '门巴',
  '珞巴',
  '基诺',
  // 龙胜各族自治县: "all the nationalities".
  '各',
];

/**
 * `name` without the longest tail of one or more ethnic names (each with an optional 族).
 * A scan from the end (what `/(?:(?:壮|…)族?)+$/` matches, without a pattern whose search
 * from each start would be quadratic): `tail[i]` tells whether `name.slice(i)` is such a tail.
 */
function stripEthnicTail(name: string): string {
  const n = name.length;
  const tail: boolean[] = new Array<boolean>(n + 1).fill(false);
  let start = n;
  for (let i = n - 1; i >= 0; i -= 1) {
    for (const ethnic of ETHNIC) {
      if (!name.startsWith(ethnic, i)) continue;
      const end = i + ethnic.length;
      const after = (k: number) => k === n || tail[k];
      if (after(end) || (name[end] === '族' && after(end + 1))) {
        tail[i] = true;
        break;
      }
    }
    if (tail[i]) start = i;
  }
  return name.slice(0, start);
}

/** Minimum length of a short form: one character names are too ambiguous to match. */
const MIN_SHORT = 2;

/**
 * The forms a division can be called by, the full name first. A short form is kept only when
 * it has at least two characters (城区, 郊区 and 沙县 keep their full names).
 */
export function nameForms(fullName: string): string[] {
  const forms = [fullName];
  const add = (s: string) => {
    if (s.length >= MIN_SHORT && !forms.includes(s)) forms.push(s);
  };
  for (const suffix of SUFFIXES) {
    if (fullName.endsWith(suffix) && fullName.length > suffix.length) {
      const stem = fullName.slice(0, -suffix.length);
      if (stem.length < MIN_SHORT) break;
      // 广西壮族 → 广西, 延边朝鲜族 → 延边; 内蒙古 keeps its 蒙古 (the rest would be one character).
      const bare = stripEthnicTail(stem);
      add(bare.length >= MIN_SHORT ? bare : stem);
      if (bare !== stem && bare.length >= MIN_SHORT) add(stem);
      break;
    }
  }
  return forms;
}

/** The shortest form of a name (its stem), for comparing old and new names of one place. */
export function nameStem(fullName: string): string {
  const forms = nameForms(fullName);
  return forms.reduce((a, b) => (b.length < a.length ? b : a));
}

/** Suffixes of towns and sub-districts (乡镇街道), longest first. */
const TOWN_SUFFIXES = ['街道办事处', '地区办事处', '办事处', '街道', '民族乡', '地区', '苏木', '镇', '乡'] as const;

/**
 * The stem a town or sub-district is called by (陆家嘴街道 → 陆家嘴, 某某回族乡 → 某某), or
 * the full name when the stem would be a single character (东乡 → 东乡).
 */
export function townStem(fullName: string): string {
  for (const suffix of TOWN_SUFFIXES) {
    if (fullName.endsWith(suffix)) {
      const stem = fullName.slice(0, -suffix.length);
      const bare = stripEthnicTail(stem);
      if (bare.length >= MIN_SHORT) return bare;
      return stem.length >= MIN_SHORT ? stem : fullName;
    }
  }
  return fullName;
}

/** Whether a town suffix (街道, 镇, 乡...) starts at `at` in `text`. */
export function townSuffixAt(text: string, at: number): boolean {
  return TOWN_SUFFIXES.some((suffix) => text.startsWith(suffix, at));
}

/** Text as it is matched: no spaces, full-width ASCII folded to half-width. */
export function normalizeText(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/[\s\u3000]+/g, '');
}
