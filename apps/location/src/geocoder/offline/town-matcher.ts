/**
 * Towns and sub-districts (乡镇街道) named in an address take a city-level answer down to their
 * county: 上海 + 陆家嘴环路 → 浦东新区, 深圳 + 粤海街道 → 南山区. Only inside the division
 * already found, and only when every town named lies in one county.
 */
import type { TownTable } from '../../geodata/geodata-format';
import { normalizeText, townStem, townSuffixAt } from './admin-names';
import { Division } from './divisions';
import { isStreetAt } from './name-matcher';

/** Town stems that name a part of almost any town (城关镇, 新城街道...): never matched. */
const GENERIC = new Set([
  '城关',
  '城东',
  '城南',
  '城西',
  '城北',
  '城中',
  '城厢',
  '城郊',
  '新城',
  '老城',
  '东城',
  '西城',
  '南城',
  '北城',
  '古城',
  '新区',
  '开发区',
]);

/** Builds the stored table from town names and their county indexes (build step). */
export function encodeTowns(towns: { name: string; county: number }[]): TownTable {
  const byStem = new Map<string, Set<number>>();
  for (const t of towns) {
    const stem = townStem(t.name);
    if (GENERIC.has(stem) || stem.includes('|')) continue;
    const set = byStem.get(stem) ?? new Set<number>();
    set.add(t.county);
    byStem.set(stem, set);
  }
  const stems = [...byStem.keys()].sort();
  return {
    stems: stems.join('|'),
    counties: stems.map((s) => [...byStem.get(s)!].map((c) => c.toString(36)).join(',')).join('|'),
  };
}

export class TownMatcher {
  /** Stem → its county, or its counties when several have a town of that name. */
  private readonly names = new Map<string, Division | Division[]>();
  /** Per first character, the lengths of the stems starting with it, longest first. */
  private readonly lengths = new Map<string, number[]>();

  constructor(table: TownTable, counties: readonly Division[]) {
    const stems = table.stems.split('|');
    const lists = table.counties.split('|');
    if (stems.length !== lists.length) throw new Error('geodata: town table is inconsistent');
    stems.forEach((stem, i) => {
      const list = lists[i];
      const pick = (c: string) => {
        const d = counties[parseInt(c, 36)];
        if (!d) throw new Error(`geodata: town ${stem} points to no county`);
        return d;
      };
      this.names.set(stem, list.includes(',') ? list.split(',').map(pick) : pick(list));
      const byFirst = this.lengths.get(stem[0]) ?? [];
      if (!byFirst.includes(stem.length)) byFirst.push(stem.length);
      this.lengths.set(stem[0], byFirst);
    });
    for (const list of this.lengths.values()) list.sort((a, b) => b - a);
  }

  get size(): number {
    return this.names.size;
  }

  /** The one county inside `scope` that the towns named in the text lie in, if there is one. */
  countyIn(raw: string, scope: Division): Division | undefined {
    const text = normalizeText(raw);
    const inScope = (d: Division) => (scope.level === 'province' ? d.province === scope : d.prefecture === scope);
    let found: Division | undefined;
    let i = 0;
    while (i < text.length) {
      let advanced = false;
      for (const len of this.lengths.get(text[i]) ?? []) {
        if (i + len > text.length) continue;
        const hit = this.names.get(text.slice(i, i + len));
        if (!hit) continue;
        // 中山路 is a street, 中山街道 the sub-district.
        if (isStreetAt(text, i + len) && !townSuffixAt(text, i + len)) continue;
        for (const c of Array.isArray(hit) ? hit : [hit]) {
          if (!inScope(c)) continue;
          if (found && found !== c) return undefined;
          found = c;
        }
        i += len;
        advanced = true;
        break;
      }
      if (!advanced) i++;
    }
    return found;
  }
}
