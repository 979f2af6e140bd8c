/**
 * `node dist/test/fuzz/import-lines.js --inputs N --seed S [--skip-errors 0|1]`: fuzzes `quarry import`'s
 * line surface (CSV, TSV and JSONL files, read, parsed, typed and loaded) in this process, into one data
 * directory, a table per input. Each input is a small file made from (seed, index) alone: hostile cells
 * (quotes, CR, NUL, invalid UTF-8, huge and odd numbers, deep JSON, long cells), ragged rows, bad ids.
 *
 * Oracles (a violated one is a finding; exit 1):
 * - no crash and no internal error: the run ends with a summary, a bad line (stoppedAt) or a SearchError's
 *   message; a TypeError, RangeError or 'quarry wasm core' message is a finding;
 * - no half-applied write: the table holds exactly `imported` documents (SELECT COUNT(*));
 * - with --skip-errors 1, imported + skipped counts every line of a TSV or JSONL file (a CSV quote may join
 *   lines into one record, as it should);
 * - the event loop answers: no gap over STALL_MS while an input runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineTarget } from '../../src/import/engine-target.js';
import { ImportRun } from '../../src/import/import-run.js';
import { Progress } from '../../src/import/progress.js';
import { Rng } from './rng.js';

const STALL_MS = 2_000;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const NASTY = [
  '', ' ', '"', '""', '"a""b"', 'a,b', 'a\tb', 'a\r\nb', '\r', '\n', '\\', '\\t', '\0', '\u00e9', '\ud83d\ude00', '\ufeff',
  '-1', '0', '1', '18446744073709551615', '18446744073709551616', '-9223372036854775809', '1e308', '1e999', 'NaN', '-0', '0x10',
  '3.4028235e38', '1.5', ' 7 ', 'true', 'null', '[]', '{}', '{"a":', '(1,2,3)', '1,2,3', '[1,2,-3]',
];

function cell(r: Rng): string {
  const k = r.int(0, 9);
  if (k < 5) return r.pick(NASTY);
  if (k === 5) return 'w'.repeat(r.int(1, 70_000)); // past a token's, a field's, a chunk's length
  if (k === 6) return '['.repeat(r.int(1, 5000)) + ']'.repeat(r.int(0, 5000)); // deep JSON
  if (k === 7) return String(r.int(-1e9, 1e9));
  if (k === 8) return Array.from({ length: r.int(1, 6) }, () => r.pick(['word', 'the', 'Ünïcödé', 'x'])).join(' ');
  return String.fromCharCode(...Array.from({ length: r.int(1, 12) }, () => r.int(0, 0xffff)));
}

function quoteCsv(v: string, r: Rng): string {
  return r.chance(0.8) && /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

function jsonValue(r: Rng): unknown {
  const k = r.int(0, 6);
  if (k === 0) return cell(r);
  if (k === 1) return r.int(-1e6, 1e6);
  if (k === 2) return r.pick([1e308, -0, 0.1, 2 ** 63, -(2 ** 63), 2 ** 64]);
  if (k === 3) return Array.from({ length: r.int(0, 5) }, () => r.int(-5, 5));
  if (k === 4) return { a: r.int(0, 3), b: [cell(r)] };
  if (k === 5) return r.pick([true, false, null]);
  return cell(r);
}

interface Input { name: string; text: Buffer; records: number }

function makeInput(seed: number, index: number): Input {
  const r = new Rng((seed * 1_000_003 + index * 2_654_435_761) >>> 0);
  const format = r.pick(['csv', 'tsv', 'jsonl'] as const);
  const columns = ['id', ...Array.from({ length: r.int(1, 4) }, (_, i) => r.pick(['title', 'body', 'n', 'price', 'tags', 'j', `c${i}`]))];
  const rows = r.int(1, 40);
  const id = () => (r.chance(0.8) ? String(index * 100 + r.int(1, 60)) : cell(r));
  let text: string;
  if (format === 'jsonl') {
    text = Array.from({ length: rows }, () => {
      if (r.chance(0.05)) return cell(r); // not JSON
      const o: Record<string, unknown> = { id: r.chance(0.9) ? Number(id()) || id() : id() };
      for (const c of columns.slice(1)) if (r.chance(0.9)) o[c] = jsonValue(r);
      return JSON.stringify(o);
    }).join('\n');
  } else {
    const sep = format === 'csv' ? ',' : '\t';
    const line = (cells: string[]) => cells.map((c) => (format === 'csv' ? quoteCsv(c, r) : c.replace(/[\t\n]/g, ' '))).join(sep);
    const ragged = () => (r.chance(0.1) ? r.int(1, columns.length + 2) : columns.length);
    text = [line(columns), ...Array.from({ length: rows }, () => line([id(), ...Array.from({ length: ragged() - 1 }, () => cell(r))]))].join(r.pick(['\n', '\r\n']));
  }
  const bytes = Buffer.from(text, 'utf8');
  if (r.chance(0.1)) bytes[r.int(0, Math.max(0, bytes.length - 1))] = r.pick([0xff, 0xc3, 0x80, 0x00]); // invalid UTF-8 or NUL
  return { name: `in${index}.${format}`, text: bytes, records: rows };
}

const seed = Number(arg('seed', '1'));
const inputs = Number(arg('inputs', '200'));
const skipErrors = arg('skip-errors', '1') === '1';
const dir = mkdtempSync(join(tmpdir(), 'quarry-fuzz-import-'));
const findings: string[] = [];
let worstGap = 0;
let last = performance.now();
const monitor = setInterval(() => {
  const now = performance.now();
  worstGap = Math.max(worstGap, now - last - 50);
  last = now;
}, 50);
const target = await EngineTarget.open(join(dir, 'data'));
let imported = 0;
let stopped = 0;
try {
  for (let i = 0; i < inputs; i++) {
    const input = makeInput(seed, i);
    const file = join(dir, input.name);
    writeFileSync(file, input.text);
    const table = `fz${i}`;
    const gapBefore = worstGap;
    worstGap = 0;
    const finding = (what: string) => findings.push(`#${i} ${input.name}: ${what}\n  input: ${JSON.stringify(input.text.toString('latin1').slice(0, 600))}`);
    try {
      const run = new ImportRun(target, { table, files: [file], batch: 7, skipErrors, noHeader: false, replace: false }, new Progress('quiet', 'fuzz'), () => false, () => undefined);
      const s = await run.run();
      imported += s.imported;
      if (s.stoppedAt) stopped++;
      const count = await countOf(target, table);
      if (count !== undefined && count !== s.imported) finding(`the table holds ${count} documents, the summary says ${s.imported} imported`);
      if (skipErrors && !s.stoppedAt && !input.name.endsWith('.csv') && s.imported + s.skipped < input.records) finding(`imported ${s.imported} + skipped ${s.skipped} < ${input.records} records`);
    } catch (e) {
      const err = e as Error;
      const internal = err instanceof TypeError || err instanceof RangeError || /wasm core|undefined|is not a function|Cannot read/.test(err.message);
      if (internal) finding(`internal error: ${err.stack?.split('\n').slice(0, 4).join(' | ')}`);
      // a table left by a refused input must hold only what was acknowledged: nothing is reported, so check it is whole rows
    }
    await new Promise((res) => setTimeout(res, 60)); // let the monitor tick
    if (worstGap > STALL_MS) finding(`the event loop stalled ${worstGap.toFixed(0)} ms`);
    worstGap = Math.max(worstGap, gapBefore);
  }
} finally {
  clearInterval(monitor);
  await target.close();
  rmSync(dir, { recursive: true, force: true });
}

async function countOf(t: EngineTarget, table: string): Promise<number | undefined> {
  const engine = (t as unknown as { engine: { execute(sql: string, s: unknown): Promise<{ kind: string; rows?: unknown[][] }[]> } }).engine;
  const { newSession } = await import('../../src/engine/index.js');
  const [r] = await engine.execute(`SELECT COUNT(*) FROM ${table}`, newSession());
  return r?.kind === 'rows' ? Number(r.rows![0]![0]) : undefined;
}

for (const f of findings) console.log(`FINDING ${f}`);
console.log(JSON.stringify({ seed, inputs, skipErrors, imported, stopped, findings: findings.length, worstGapMs: Math.round(worstGap) }));
process.exit(findings.length ? 1 : 0);
