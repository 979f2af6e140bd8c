/**
 * A results table as an SVG picture, written in TypeScript (no browser, no plotting library): a panel
 * of query throughput per peer (columns named `QPS ...`), one of document throughput (`... docs/s`,
 * `... per CPU s`), one of latency percentiles (`p50 ms`, `p99 ms (8)`, ...), horizontal bars grouped
 * by peer, one colour per
 * column. Ratio rows (`ratio ...`) are left out: they are not in the same unit. A panel whose values
 * span more than 30x uses a log scale, so a 1 ms p50 and a 1 s p99 are both readable.
 */

export type Row = Record<string, unknown>;

const QUERIES = /qps/i;
const DOCS = /docs\/s|per sec|docs\/cpu-s|per cpu s|docsPerSec|docsPerCpuSec/i;
const LATENCY = /\bp\d{2}\b|p\d{2} ?ms/i;
/** Tableau's 20 colours: distinct enough for the widest table (highlight's 16 series). */
const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f', '#ff9da7', '#bab0ac',
  '#a0cbe8', '#ffbe7d', '#8cd17d', '#ff9d9a', '#86bcb6', '#f1ce63', '#d4a6c8', '#d7b5a6', '#499894', '#79706e'];
const BAR = 14;
const GAP = 10;
const LABEL_W = 250;
const PLOT_W = 420;
const WIDTH = LABEL_W + PLOT_W + 90;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The row's label: its first string value (peer, class, corpus). */
function labelOf(r: Row): string {
  const parts = Object.values(r).filter((v): v is string => typeof v === 'string');
  return parts.slice(0, 2).join(' · ');
}

function fmt(v: number): string {
  if (v >= 100) return Math.round(v).toLocaleString('en-US');
  return v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

interface Panel { title: string; columns: string[] }

/** Panels for the numeric columns of `rows` that are throughputs or latency percentiles. */
export function panelsOf(rows: Row[]): Panel[] {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => rows.some((r) => typeof r[c] === 'number'));
  const panels = [
    { title: 'Queries per second (higher is better)', columns: cols.filter((c) => QUERIES.test(c)) },
    { title: 'Documents per second (higher is better)', columns: cols.filter((c) => DOCS.test(c) && !QUERIES.test(c)) },
    { title: 'Latency percentiles, ms (lower is better)', columns: cols.filter((c) => LATENCY.test(c) && !QUERIES.test(c) && !DOCS.test(c)) },
  ];
  return panels.filter((p) => p.columns.length > 0);
}

function panelSvg(panel: Panel, rows: Row[], top: number): { svg: string; height: number } {
  const values = rows.flatMap((r) => panel.columns.map((c) => r[c])).filter((v): v is number => typeof v === 'number' && v > 0);
  const max = Math.max(...values);
  const min = Math.min(...values);
  const log = max / min > 30;
  const lo = log ? Math.log10(min) - 0.3 : 0;
  const x = (v: number) => (log ? ((Math.log10(v) - lo) / (Math.log10(max) - lo)) : v / max) * PLOT_W;
  const out: string[] = [`<text x="0" y="${top + 14}" class="title">${esc(panel.title)}${log ? ' (log scale)' : ''}</text>`];
  let y = top + 26;
  let lx = 0;
  panel.columns.forEach((c, i) => {
    const w = 24 + c.length * 6;
    if (lx > 0 && lx + w > WIDTH) { lx = 0; y += 16; }
    out.push(`<rect x="${lx}" y="${y}" width="10" height="10" fill="${COLOURS[i % COLOURS.length]}"/>`,
      `<text x="${lx + 14}" y="${y + 9}" class="legend">${esc(c)}</text>`);
    lx += w;
  });
  y += 22;
  for (const r of rows) {
    const bars = panel.columns.filter((c) => typeof r[c] === 'number' && (r[c] as number) > 0);
    if (!bars.length) continue;
    const groupH = panel.columns.length * BAR;
    out.push(`<text x="${LABEL_W - 8}" y="${y + groupH / 2 + 4}" text-anchor="end">${esc(labelOf(r))}</text>`);
    panel.columns.forEach((c, i) => {
      const v = r[c];
      if (typeof v !== 'number' || v <= 0) return;
      const w = Math.max(1, x(v));
      out.push(`<rect x="${LABEL_W}" y="${y + i * BAR}" width="${w.toFixed(1)}" height="${BAR - 2}" fill="${COLOURS[i % COLOURS.length]}"><title>${esc(`${labelOf(r)}, ${c}: ${fmt(v)}`)}</title></rect>`,
        `<text x="${(LABEL_W + w + 4).toFixed(1)}" y="${y + i * BAR + BAR - 4}" class="value">${fmt(v)}</text>`);
    });
    y += groupH + GAP;
  }
  return { svg: out.join('\n'), height: y - top };
}

/** The SVG text, or undefined when the rows have neither throughput nor latency columns. */
export function plotSvg(title: string, allRows: Row[]): string | undefined {
  const rows = allRows.filter((r) => !Object.values(r).some((v) => typeof v === 'string' && /^ratio\b/i.test(v)));
  const panels = panelsOf(rows);
  if (!rows.length || !panels.length) return undefined;
  const parts: string[] = [];
  let y = 30;
  for (const p of panels) {
    const { svg, height } = panelSvg(p, rows, y);
    parts.push(svg);
    y += height + 16;
  }
  const width = WIDTH;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="sans-serif" font-size="11">`,
    '<style>.title{font-weight:bold;font-size:12px}.legend{font-size:10px}.value{font-size:9px;fill:#333}.head{font-weight:bold;font-size:14px}</style>',
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="0" y="18" class="head">${esc(title)}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

/** The table rows inside a results file: an array of rows, or an object's `classes` / `rows` array. */
export function rowsOf(json: unknown): Row[] | undefined {
  if (Array.isArray(json)) {
    if (!json.every((r) => typeof r === 'object' && r !== null)) return undefined;
    // engine.json: per corpus, a `queries` table; one row per corpus and query class
    if (json.every((r) => Array.isArray((r as Row).queries))) {
      return json.flatMap((r) => ((r as Row).queries as Row[]).map((q) => ({ corpus: String((r as Row).corpus ?? ''), ...q })));
    }
    return json as Row[];
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const o = json as Record<string, unknown>;
  for (const k of ['classes', 'rows']) if (Array.isArray(o[k])) return rowsOf(o[k]);
  return undefined;
}
