// Our own conformance transcripts (test/conformance/**/*.case): SQL input, expected output of the last
// statement. Each names its source in a first `#` line. They run beside Manticore's cases.
//
//   # source: the spec, section 8
//   --- input ---
//   CREATE TABLE t (title TEXT);
//   SELECT id FROM t;
//   --- output ---
//   | id |          (a result set: header line, then one line per row; NULL is SQL NULL; a blank line
//                   then another table: the statement's next result set, e.g. one per FACET)
//   OK 2            (or an OK packet with its affected rows)
//   ERROR message   (or an error; the message must match exactly)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadCases, type Case } from './cases.js';

/** Every `.case` file under `dir`, depth first, in name order. */
export function findTranscripts(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTranscripts(path));
    else if (name.endsWith('.case')) out.push(path);
  }
  return out;
}

function tableCells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

function parseTable(lines: string[]): { columns: string[]; rows: (string | null)[][] } {
  const [header, ...rows] = lines.map(tableCells);
  return { columns: header!, rows: rows.map((r) => r.map((c) => (c === 'NULL' ? null : c))) };
}

/** Tables separated by blank lines (empty groups dropped). */
function blocks(lines: string[]): string[][] {
  const out: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === '') out.push([]);
    else out[out.length - 1]!.push(line);
  }
  return out.filter((b) => b.length > 0);
}

/** The expectation of an output block: one result set, or several (`more`: the ones after the first). */
export function parseOutput(lines: string[]): Record<string, unknown> {
  const [firstBlock = [], ...rest] = blocks(lines);
  const first = firstBlock[0]?.trim() ?? '';
  const okMatch = /^OK (\d+)$/.exec(first);
  if (okMatch) return { ok: true, affected: Number(okMatch[1]) };
  if (first.startsWith('ERROR ')) return { error: first.slice('ERROR '.length) };
  if (![firstBlock, ...rest].every((b) => b[0]?.trim().startsWith('|'))) {
    throw new Error(`output must be a table (or tables), "OK n" or "ERROR msg": ${first}`);
  }
  return { ...parseTable(firstBlock), ...(rest.length ? { more: rest.map(parseTable) } : {}) };
}

/** Statements of an input block: each ends with `;` at the end of a line. */
export function splitInput(lines: string[]): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    current.push(line);
    if (line.trimEnd().endsWith(';')) {
      statements.push(current.join('\n').trim().replace(/;$/, ''));
      current = [];
    }
  }
  if (current.join('').trim() !== '') statements.push(current.join('\n').trim());
  return statements;
}

/** A transcript as a Case: area `own/<folder>`, id the path under the transcripts root. */
export function parseTranscript(text: string, path: string, root: string): Case {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const inputAt = lines.findIndex((l) => l.trim() === '--- input ---');
  const outputAt = lines.findIndex((l) => l.trim() === '--- output ---');
  if (inputAt < 0 || outputAt < inputAt) throw new Error(`${path}: needs '--- input ---' then '--- output ---'`);
  const source = lines.slice(0, inputAt).find((l) => l.startsWith('#'))?.replace(/^#\s*/, '') ?? '';
  const statements = splitInput(lines.slice(inputAt + 1, outputAt).filter((l) => l.trim() !== ''));
  if (statements.length === 0) throw new Error(`${path}: no input statements`);
  const id = relative(root, path).replace(/\.case$/, '');
  return {
    id: `own/${id}`,
    area: `own/${id.includes('/') ? id.slice(0, id.lastIndexOf('/')) : 'misc'}`,
    source,
    evidence: 'own-transcript',
    setup: statements.slice(0, -1).map((sql) => ({ sql })),
    request: [{ sql: statements[statements.length - 1]! }],
    expect: parseOutput(lines.slice(outputAt + 1)),
    compare: 'exact',
    vary: [],
  };
}

/**
 * Our own JSON-format cases (`<root>/json/*.jsonl`, the shared cases' format: HTTP steps with a JSON
 * expectation), ids and area under `own/json`.
 */
export function loadOwnJsonCases(root: string): Case[] {
  const dir = join(root, 'json');
  if (!existsSync(dir)) return [];
  return loadCases(dir).map((c) => ({ ...c, id: `own/json/${c.id}`, area: 'own/json' }));
}

/** All transcripts under `root` as cases, then the JSON-format cases. */
export function loadTranscripts(root: string): Case[] {
  const own = findTranscripts(root).map((path) => parseTranscript(readFileSync(path, 'utf8'), path, root));
  return [...own, ...loadOwnJsonCases(root)];
}
