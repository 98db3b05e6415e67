// The picture of a run: one horizontal bar per case that has a goal, its length the case's
// score against that goal (1 = exactly at the goal, longer is better: a throughput ratio over
// its target, a target time over the measured one), a line at the goal, green when met and
// red when not. Hand-written SVG, no dependency: the file is small, diffable and renders in
// any browser or Markdown viewer.

const WIDTH = 980;
const LABEL_WIDTH = 330;
const VALUE_WIDTH = 170;
const BAR_HEIGHT = 18;
const ROW_HEIGHT = 26;
const TOP = 64;
const BOTTOM = 40;
/** Scores are drawn up to this many times the goal; longer bars are cut and marked. */
const MAX_SCORE = 3;

const COLOURS = { met: '#2e7d32', missed: '#c62828', none: '#9e9e9e', goal: '#212121', grid: '#e0e0e0', text: '#212121' };

/** XML text and attribute values. */
export function escapeXml(text) {
  return String(text).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]);
}

/** The rows that get a bar: every case with a goal, measured or not. */
export function chartRows(rows) {
  return rows.filter((r) => r.score !== undefined || (r.targetText && r.targetText !== '-' && r.met === false));
}

/**
 * The SVG of a run's rows (`rows` as written in the run's JSON: `title`, `score`, `met`,
 * `targetText`). `meta` gives the caption: `runId`, `startedAt`, `machine`.
 */
export function chartSvg(rows, meta = {}) {
  const bars = chartRows(rows);
  const plotLeft = LABEL_WIDTH;
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const x = (score) => plotLeft + (Math.min(Math.max(score, 0), MAX_SCORE) / MAX_SCORE) * plotWidth;
  const height = TOP + bars.length * ROW_HEIGHT + BOTTOM;
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  const when = meta.startedAt ? new Date(meta.startedAt).toISOString().slice(0, 16).replace('T', ' ') : '';
  const machine = meta.machine ? `${meta.machine.cores} x ${meta.machine.cpu}, Node ${meta.machine.node}` : '';
  out.push(`<title>${escapeXml(`pnpm bench ${meta.runId ?? ''}: each case against its goal`)}</title>`);
  out.push(`<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#ffffff"/>`);
  out.push(
    `<text x="12" y="22" font-size="15" font-weight="bold" fill="${COLOURS.text}">${escapeXml('pnpm bench: each case against its goal (1 = at the goal, longer is better)')}</text>`,
  );
  out.push(
    `<text x="12" y="40" fill="#616161">${escapeXml([meta.runId && `run ${meta.runId}`, when && `${when} UTC`, machine].filter(Boolean).join(' · '))}</text>`,
  );

  // grid: 0, 0.5, 1 (the goal), 1.5 ... MAX_SCORE
  const axisY = TOP + bars.length * ROW_HEIGHT;
  for (let s = 0; s <= MAX_SCORE + 1e-9; s += 0.5) {
    const gx = x(s).toFixed(1);
    const goal = Math.abs(s - 1) < 1e-9;
    out.push(
      `<line x1="${gx}" y1="${TOP - 6}" x2="${gx}" y2="${axisY}" stroke="${goal ? COLOURS.goal : COLOURS.grid}" stroke-width="${goal ? 2 : 1}"${goal ? ' stroke-dasharray="4 3"' : ''}/>`,
    );
    out.push(`<text x="${gx}" y="${axisY + 16}" text-anchor="middle" fill="#616161">${goal ? 'goal' : `${s}`}</text>`);
  }

  bars.forEach((row, i) => {
    const y = TOP + i * ROW_HEIGHT;
    const measured = row.score !== undefined && Number.isFinite(row.score);
    const colour = !measured ? COLOURS.none : row.met ? COLOURS.met : COLOURS.missed;
    const width = measured ? Math.max(x(row.score) - plotLeft, 1) : 0;
    const label = row.title.length > 52 ? `${row.title.slice(0, 51)}…` : row.title;
    const value = measured ? `${(Math.floor(row.score * 100 + 1e-9) / 100).toFixed(2)} · ${row.targetText ?? ''}` : 'not measured';
    out.push(`<g class="bar" data-case="${escapeXml(row.id ?? row.title)}">`);
    out.push(`<title>${escapeXml(`${row.title}: ${value}${row.notes ? ` (${row.notes})` : ''}`)}</title>`);
    out.push(`<text x="${plotLeft - 8}" y="${y + BAR_HEIGHT - 5}" text-anchor="end" fill="${COLOURS.text}">${escapeXml(label)}</text>`);
    out.push(`<rect x="${plotLeft}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${colour}"/>`);
    if (measured && row.score > MAX_SCORE) {
      out.push(`<text x="${(plotLeft + width - 4).toFixed(1)}" y="${y + BAR_HEIGHT - 5}" text-anchor="end" fill="#ffffff">»</text>`);
    }
    out.push(`<text x="${WIDTH - VALUE_WIDTH + 8}" y="${y + BAR_HEIGHT - 5}" fill="${colour}">${escapeXml(value)}</text>`);
    out.push('</g>');
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
