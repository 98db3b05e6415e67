/**
 * Chinese text in the console is drawn with a CJK face, not as empty boxes: the console's
 * stylesheet names CJK families, and Chromium finds one on this machine (the test helper
 * installs `fonts-noto-cjk` with the browser). Asked of Chromium itself (DevTools protocol
 * `CSS.getPlatformFontsForNode`: the font that drew the text node), so a fallback box fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

const ROOT = join(__dirname, '../../..');
const CJK_FAMILY = /Noto (Sans|Serif) CJK|Source Han (Sans|Serif)|WenQuanYi|PingFang|Hiragino|Microsoft YaHei/;

describe('Chinese text in the console', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(() => browser?.close());

  it('the stylesheet asks for a CJK family after the Latin ones', () => {
    const css = readFileSync(join(ROOT, 'apps/console/src/console.css'), 'utf8');
    const rootRule = /:root\s*{([^}]*)}/.exec(css)?.[1] ?? '';
    const families = /font-family:([^;]*);/.exec(rootRule.replace(/\/\*[\s\S]*?\*\//g, ''))?.[1] ?? '';
    expect(families).toMatch(/'Noto Sans CJK SC'/);
    expect(families.trim()).toMatch(/sans-serif$/);
  });

  it('draws 北京市 with a CJK face (not the fallback box) in the console stylesheet', async () => {
    const css = readFileSync(join(ROOT, 'apps/console/src/console.css'), 'utf8');
    const page = await browser.newPage();
    try {
      await page.setContent(
        `<!doctype html><html lang="en"><head><style>${css}</style></head><body><p id="place">北京市</p></body></html>`,
      );
      await page.evaluate(() => document.fonts.ready);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#place' });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      process.stdout.write(`  [figure] fonts drawing 北京市: ${JSON.stringify(fonts)}\n`);
      // Every one of the three characters drawn by a CJK face.
      const cjk = fonts.filter((f) => CJK_FAMILY.test(f.familyName) || CJK_FAMILY.test(f.postScriptName ?? ''));
      expect(cjk.reduce((n, f) => n + f.glyphCount, 0)).toBe(3);

      // And the glyphs are real ones: a .notdef box is the same for every character, so three
      // different characters drawn as boxes measure alike; real glyphs of a CJK face are
      // full-width (1 em each).
      const widths = await page.evaluate(() => {
        const p = document.getElementById('place')!;
        const style = getComputedStyle(p);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${style.fontSize} ${style.fontFamily}`;
        const em = parseFloat(style.fontSize);
        return { em, text: ctx.measureText('北京市').width, box: ctx.measureText('\u{10FFFD}\u{10FFFD}\u{10FFFD}').width };
      });
      expect(widths.text).toBeCloseTo(3 * widths.em, 0);
      expect(widths.text).not.toBeCloseTo(widths.box, 0);
    } finally {
      await page.close();
    }
  });
});
