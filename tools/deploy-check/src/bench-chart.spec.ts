/**
 * The chart `pnpm bench` writes next to its JSON (bench/lib/chart.mjs): a well-formed SVG
 * document with one bar per case that has a goal, sized and coloured by its score.
 */
import { resolve } from 'node:path';

interface ChartRow {
  id: string;
  title: string;
  score?: number;
  met?: boolean;
  targetText?: string;
  notes?: string;
}
interface ChartModule {
  chartSvg(rows: ChartRow[], meta?: Record<string, unknown>): string;
  chartRows(rows: ChartRow[]): ChartRow[];
}

const CHART = resolve(__dirname, '../../../bench/lib/chart.mjs');

/** Strict well-formedness: one root, balanced tags, quoted attributes, only the five entities and numeric ones. */
function parseXml(text: string): { name: string; attributes: Record<string, string>; children: unknown[] } {
  type Node = { name: string; attributes: Record<string, string>; children: Node[] };
  const stack: Node[] = [];
  let root: Node | undefined;
  const token = /<!--[\s\S]*?-->|<\/([A-Za-z][\w:.-]*)\s*>|<([A-Za-z][\w:.-]*)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)|(<)/g;
  const checkText = (t: string) => {
    for (const m of t.matchAll(/&([^;\s]*);?/g)) {
      if (!/^(lt|gt|amp|apos|quot|#\d+|#x[0-9a-fA-F]+)$/.test(m[1]!) || !m[0].endsWith(';')) throw new Error(`bad entity ${m[0]}`);
    }
  };
  for (const m of text.trim().matchAll(token)) {
    const [, close, open, attrs, selfClosing, chars, stray] = m;
    if (stray) throw new Error(`stray < at ${m.index}`);
    if (chars !== undefined) {
      if (stack.length === 0 && chars.trim() !== '') throw new Error('text outside the root element');
      if (chars.includes('>')) throw new Error(`raw > in text at ${m.index}`);
      checkText(chars);
    } else if (close) {
      const top = stack.pop();
      if (top?.name !== close) throw new Error(`</${close}> closes <${top?.name}>`);
    } else if (open) {
      if (stack.length === 0 && root) throw new Error('two root elements');
      const attributes: Record<string, string> = {};
      for (const a of (attrs ?? '').matchAll(/(?<![\w:.-])([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        if (a[1]! in attributes) throw new Error(`attribute ${a[1]} twice`);
        checkText(a[2] ?? a[3] ?? '');
        attributes[a[1]!] = a[2] ?? a[3] ?? '';
      }
      const node: Node = { name: open, attributes, children: [] };
      stack.at(-1)?.children.push(node);
      root ??= node;
      if (!selfClosing) stack.push(node);
    }
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> not closed`);
  if (!root) throw new Error('no element');
  return root;
}

type Element = { name: string; attributes: Record<string, string>; children: Element[] };
const descendants = (node: Element): Element[] => node.children.flatMap((c) => [c, ...descendants(c)]);

describe('the bench chart', () => {
  let chart: ChartModule;
  beforeAll(async () => {
    chart = (await import(CHART)) as ChartModule;
  });

  const rows: ChartRow[] = [
    { id: 'floor-http', title: 'floor: node:http hello-world' }, // no goal: no bar
    { id: 'lbs-cached', title: 'cached lbsQuery (lbsStat 2)', score: 1.35, met: true, targetText: 'ratio >= 0.6' },
    { id: 'lbs-miss', title: 'offline lbsQuery miss <cache off> & "quoted"', score: 0.63, met: false, targetText: 'ratio >= 0.6' },
    { id: 'users-page', title: 'GET /users page 50000', score: 7.5, met: true, targetText: 'p99 < 50 ms' },
    { id: 'login', title: 'login', met: false, targetText: 'ratio >= 0.6', notes: 'not measured: account did not start' },
  ];

  it('is well-formed XML with an svg root', () => {
    const svg = chart.chartSvg(rows, { runId: 'abc123', startedAt: '2026-11-23T20:00:00Z', machine: { cores: 2, cpu: 'Xeon', node: 'v24' } });
    const root = parseXml(svg) as Element;
    expect(root.name).toBe('svg');
    expect(root.attributes.xmlns).toBe('http://www.w3.org/2000/svg');
    expect(svg).toContain('&lt;cache off&gt; &amp; &quot;quoted&quot;');
  });

  it('draws one bar per case with a goal, in order, longer for a higher score, coloured by the verdict', () => {
    const root = parseXml(chart.chartSvg(rows)) as Element;
    const bars = descendants(root).filter((n) => n.name === 'g' && n.attributes.class === 'bar');
    expect(bars.map((b) => b.attributes['data-case'])).toEqual(['lbs-cached', 'lbs-miss', 'users-page', 'login']);
    const rect = (b: Element) => b.children.find((c) => c.name === 'rect')!.attributes;
    const widths = bars.map((b) => Number(rect(b).width));
    expect(widths[0]).toBeGreaterThan(widths[1]!);
    expect(widths[2]).toBeGreaterThan(widths[0]!); // 7.5 is cut at the chart's end, still the longest
    expect(widths[3]).toBe(0); // not measured
    expect(bars.map((b) => rect(b).fill)).toEqual(['#2e7d32', '#c62828', '#2e7d32', '#9e9e9e']);
  });

  it('puts the goal line where a score of 1 ends', () => {
    const root = parseXml(chart.chartSvg([{ id: 'at-goal', title: 'at the goal', score: 1, met: true, targetText: 'ratio >= 0.6' }])) as Element;
    const bar = descendants(root).find((n) => n.name === 'rect' && n.attributes.fill === '#2e7d32')!;
    const goal = descendants(root).find((n) => n.name === 'line' && n.attributes['stroke-dasharray'])!;
    expect(Number(bar.attributes.x) + Number(bar.attributes.width)).toBeCloseTo(Number(goal.attributes.x1), 0);
  });
});
