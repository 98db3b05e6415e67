/**
 * Every rule a comment, test or document cites is in the repository: a citation names
 * `docs/contract.md §N` (or `§N.M`), and that section exists there as a heading `## N.` (or
 * `### N.M`). A citation of the old out-of-repository form `CONTRACT §N` fails.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const CONTRACT = 'docs/contract.md';
const SCANNED = ['apps', 'libs', 'scripts', 'tests', 'tools', 'bench', 'docs', 'k8s', 'docker', '.ci', '.github'];
const SCANNED_FILES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', 'coverage', '.nx', 'data']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|json|md|yml|yaml|sh|sql|html|css)$|^run$|^Dockerfile/;

function filesUnder(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) filesUnder(full, out);
    } else if (TEXT.test(entry.name)) out.push(full);
  }
  return out;
}

/** The section numbers of docs/contract.md: `## 14. …` gives "14", `### 6.2 …` gives "6.2". */
export function contractSections(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const m of markdown.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)) sections.add(m[1] as string);
  return sections;
}

/** The sections a text cites: `docs/contract.md §2, §3`, `docs/contract.md §6 and §8`, `§13/§14`. */
export function citedSections(text: string): string[] {
  const cited: string[] = [];
  for (const m of text.matchAll(/docs\/contract\.md ?§(\d+(?:\.\d+)?)((?:(?:, ?| and | or | ?\/ ?)§\d+(?:\.\d+)?)*)/g)) {
    cited.push(m[1] as string);
    for (const more of (m[2] ?? '').matchAll(/§(\d+(?:\.\d+)?)/g)) cited.push(more[1] as string);
  }
  return cited;
}

/** Citations of the contract that is not in the repository. */
export function outsideCitations(text: string): string[] {
  return [...text.matchAll(/\b(?:CONTRACT(?:\.md)?|[Tt]he contract) ?§ ?\d+/g)].map((m) => m[0]);
}

describe('citations of docs/contract.md', () => {
  const sections = contractSections(readFileSync(path.join(ROOT, CONTRACT), 'utf8'));
  const files = [...SCANNED.flatMap((dir) => filesUnder(path.join(ROOT, dir))), ...SCANNED_FILES.map((f) => path.join(ROOT, f))];

  it('the contract has its fourteen sections, numbered as before', () => {
    for (let n = 1; n <= 14; n++) expect(sections.has(String(n))).toBe(true);
  });

  it('every citation names a section that exists, and none cites the contract outside the repository', () => {
    const missing: string[] = [];
    const outside: string[] = [];
    let checked = 0;
    for (const file of files) {
      if (file === __filename) continue; // its examples are citations on purpose
      const text = readFileSync(file, 'utf8');
      const rel = path.relative(ROOT, file);
      for (const section of citedSections(text)) {
        checked++;
        if (!sections.has(section)) missing.push(`${rel}: §${section}`);
      }
      for (const old of outsideCitations(text)) outside.push(`${rel}: ${old}`);
    }
    console.log(`contract citations: ${checked} checked in ${files.length} files, ${sections.size} sections`);
    expect(missing).toEqual([]);
    expect(outside).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

/** An account endpoint named by its row in the specification's table (1-13) instead of its interface number (100-207). */
export function rowNumberedEndpoints(text: string): string[] {
  return [...text.matchAll(/\b(?:[Ss]pec endpoints?|[Ee]ndpoints?|[Ii]nterfaces?) \d{1,2}\b(?![.\d])/g)].map((m) => m[0]);
}

describe('one numbering of the account endpoints', () => {
  it('names them by interface number (100-207), never by row of the specification table', () => {
    const found: string[] = [];
    for (const dir of ['apps', 'libs', 'docs', 'scripts', 'tests']) {
      for (const file of filesUnder(path.join(ROOT, dir))) {
        if (file === __filename || file.endsWith('.json')) continue;
        for (const hit of rowNumberedEndpoints(readFileSync(file, 'utf8'))) found.push(`${path.relative(ROOT, file)}: ${hit}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('tells a row number from an interface number', () => {
    expect(rowNumberedEndpoints('Interfaces 9-12 of the spec; interface 13; spec endpoint 4')).toEqual([
      'Interfaces 9',
      'interface 13',
      'spec endpoint 4',
    ]);
    expect(rowNumberedEndpoints('interfaces 200-203; interface 204; HTTP/1.1 endpoint')).toEqual([]);
  });
});

describe('the citation readers', () => {
  it('read lists of sections, subsections and headings', () => {
    expect(citedSections('see docs/contract.md §2, §3 and docs/contract.md §6 and §8; docs/contract.md §13.1')).toEqual([
      '2',
      '3',
      '6',
      '8',
      '13.1',
    ]);
    expect(contractSections('## 1. How\n### 1.2 Sub\n## 14. Control\n# 3. no')).toEqual(new Set(['1', '1.2', '14']));
    expect(outsideCitations('(CONTRACT §6) and the contract §2, CONTRACT.md §3')).toEqual([
      'CONTRACT §6',
      'the contract §2',
      'CONTRACT.md §3',
    ]);
  });

  it('fail on a section that does not exist', () => {
    const sections = contractSections('## 1. One\n## 2. Two\n');
    expect(citedSections('docs/contract.md §2, §15').filter((s) => !sections.has(s))).toEqual(['15']);
  });
});
