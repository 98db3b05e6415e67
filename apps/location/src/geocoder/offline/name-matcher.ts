/**
 * Forward geocoding by administrative names: finds the division names (full and short forms)
 * in the `city` and `address` texts and picks the deepest division consistent with them.
 * The city narrows first: a county name that exists in several prefectures resolves inside
 * the city given.
 */
import { nameForms, normalizeText } from './admin-names';
import { Division } from './divisions';

interface Candidate {
  division: Division;
  /** Matched by its full name (北京市) rather than a short form (北京). */
  full: boolean;
}

export interface Mention {
  start: number;
  text: string;
  candidates: Candidate[];
}

const DEPTH = { province: 1, prefecture: 2, county: 3 } as const;

/** A short form right before one of these is part of a street or building name (长安街, 中山路). */
const STREET_AFTER = new Set([...'路街道巷弄门桥大']);

const DIRECTIONS = new Set([...'东西南北中']);

/** Whether a street-name ending (路, 街, 大道, 东路, 北大街...) starts at `at` in `text`. */
export function isStreetAt(text: string, at: number): boolean {
  const next = text[at];
  if (next === undefined) return false;
  if (STREET_AFTER.has(next)) return true;
  const after = text[at + 1];
  return DIRECTIONS.has(next) && after !== undefined && STREET_AFTER.has(after);
}

/** County names that say nothing without their prefecture (山西's 城区, 郊区, 矿区). */
const GENERIC = new Set(['城区', '郊区', '矿区']);

function within(d: Division, scope: Division | undefined): boolean {
  if (!scope || d === scope) return true;
  if (scope.level === 'province') return d.province === scope && d !== scope;
  if (scope.level === 'prefecture') return d.level === 'county' && d.prefecture === scope;
  return false;
}

/** Whether `a` is `d` itself or one of its ancestors. */
function covers(a: Division, d: Division): boolean {
  return a === d || a === d.province || (d.prefecture !== undefined && a === d.prefecture);
}

export class NameMatcher {
  private readonly names = new Map<string, Candidate[]>();
  /** Per first character, the lengths of the names starting with it, longest first. */
  private readonly lengths = new Map<string, number[]>();

  constructor(divisions: readonly Division[]) {
    for (const division of divisions) {
      nameForms(division.name).forEach((form, i) => {
        const list = this.names.get(form) ?? [];
        if (!list.some((c) => c.division === division)) list.push({ division, full: i === 0 });
        this.names.set(form, list);
      });
    }
    for (const name of this.names.keys()) {
      const first = name[0];
      const list = this.lengths.get(first) ?? [];
      if (!list.includes(name.length)) list.push(name.length);
      this.lengths.set(first, list);
    }
    for (const list of this.lengths.values()) list.sort((a, b) => b - a);
  }

  /** Division names in a text, longest first at each position, not overlapping. */
  mentions(raw: string): Mention[] {
    const text = normalizeText(raw);
    const out: Mention[] = [];
    let i = 0;
    while (i < text.length) {
      let found: Mention | undefined;
      for (const len of this.lengths.get(text[i]) ?? []) {
        if (i + len > text.length) continue;
        const name = text.slice(i, i + len);
        const candidates = this.names.get(name);
        if (!candidates) continue;
        const full = candidates.filter((c) => c.full);
        // A short form followed by 路/街/... (or 东路, 北大街...) names a street, not the division.
        const usable = isStreetAt(text, i + len) ? full : candidates;
        if (usable.length) {
          found = { start: i, text: name, candidates: usable };
          break;
        }
      }
      if (found) {
        out.push(found);
        i += found.text.length;
      } else {
        i++;
      }
    }
    return out;
  }

  /**
   * The deepest division named by the mentions, inside `scope` when given: the candidate most
   * supported by the other mentions (its province or prefecture named too), then the deepest,
   * then the one named in full, then the first mentioned.
   */
  resolve(mentions: Mention[], scope?: Division, support: Mention[] = mentions): Division | undefined {
    let best: Division | undefined;
    let bestKey: number[] = [];
    mentions.forEach((m, index) => {
      for (const c of m.candidates) {
        const d = c.division;
        if (!within(d, scope)) continue;
        const supporters = support.filter((o) => o !== m && o.candidates.some((oc) => oc.division !== d && covers(oc.division, d))).length;
        if (GENERIC.has(d.name) && supporters === 0 && scope !== d.prefecture) continue;
        const key = [supporters + (scope && covers(scope, d) ? 1 : 0), DEPTH[d.level], c.full ? 1 : 0, -index];
        if (!best || compare(key, bestKey) > 0) {
          best = d;
          bestKey = key;
        }
      }
    });
    return best;
  }

  /** City + address text → the deepest matching division, or undefined. */
  match(city: string, address: string): Division | undefined {
    return this.matchMentions(this.mentions(city), this.mentions(address));
  }

  /**
   * `match(city, address)` and `match(city, '')` at once, the city text read once: whether the
   * address changed the answer.
   */
  matchWithCityAlone(city: string, address: string): { division?: Division; cityAlone?: Division } {
    const cityMentions = this.mentions(city);
    return { division: this.matchMentions(cityMentions, this.mentions(address)), cityAlone: this.matchMentions(cityMentions, []) };
  }

  private matchMentions(cityMentions: Mention[], addressMentions: Mention[]): Division | undefined {
    const all = addressMentions.length === 0 ? cityMentions : [...cityMentions, ...addressMentions];
    const scope = this.resolve(cityMentions, undefined, all);
    if (!scope) return this.resolve(addressMentions, undefined, all);
    if (scope.level === 'county') return scope;
    const inScope = this.resolve(addressMentions, scope, all);
    if (inScope) return inScope;
    // The city text may be ambiguous (吉林: the province or its city): accept a division found
    // without the scope when another reading of the city text covers it.
    const anywhere = this.resolve(addressMentions, undefined, all);
    if (anywhere && cityMentions.some((m) => m.candidates.some((c) => covers(c.division, anywhere)))) return anywhere;
    return scope;
  }
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
