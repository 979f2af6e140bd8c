/**
 * Records -> documents. JSON Lines objects keep their JSON types (`id`, when present, is the document
 * id). CSV/TSV values are text: each column gets a kind, from the table's schema when it exists or
 * from the first batch's values when the import creates it (a column whose every value reads as a
 * number is numeric), and values are converted by it.
 */
import { parse as losslessParse } from 'lossless-json';
import { docLiteral, type JsonObject, type JsonValue } from '../engine/json/json-value.js';
import type { Literal } from '../engine/values/literal.js';
import type { RowCell } from '../engine/row-load.js';
import type { ImportDoc, TargetColumn } from './target.js';

export type ColumnKind = 'number' | 'string' | 'json' | 'mva' | 'bool';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const UNSIGNED_ID = /^\d+$/;

export type Built = { ok: true; doc: ImportDoc } | { ok: false; error: string };

/** A column's kind from its DESCRIBE type. */
export function kindOfType(type: string): ColumnKind {
  const t = type.toLowerCase();
  if (/^(uint|int|integer|bigint|float|timestamp|tokencount)/.test(t)) return 'number';
  if (t === 'bool') return 'bool';
  if (t.startsWith('mva') || t.startsWith('multi')) return 'mva';
  if (t === 'json') return 'json';
  return 'string';
}

export function kindsOfColumns(columns: TargetColumn[]): Map<string, ColumnKind> {
  return new Map(columns.map((c) => [c.name.toLowerCase(), kindOfType(c.type)]));
}

/** Kinds for a new table: numeric where every non-empty value of the sample is a number. */
export function inferKinds(header: string[], sample: string[][]): Map<string, ColumnKind> {
  const kinds = new Map<string, ColumnKind>();
  header.forEach((name, i) => {
    const values = sample.map((r) => r[i] ?? '').filter((v) => v !== '');
    kinds.set(name.toLowerCase(), values.length > 0 && values.every((v) => NUMBER.test(v)) ? 'number' : 'string');
  });
  return kinds;
}

/** One value by its column's kind, or an Error saying why it does not fit. */
function convert(v: string, kind: ColumnKind, column: string): Literal | Error {
  switch (kind) {
    case 'string': return { t: 'string', v };
    case 'number': return numberLiteral(v) ?? new Error(`column '${column}': '${v}' is not a number`);
    case 'bool':
      if (/^(1|true)$/i.test(v)) return { t: 'int', v: 1n };
      if (/^(0|false)$/i.test(v)) return { t: 'int', v: 0n };
      return new Error(`column '${column}': '${v}' is not a bool`);
    case 'mva': {
      const parts = v.split(/[\s,]+/).filter(Boolean);
      if (!parts.every((p) => UNSIGNED_ID.test(p) || /^-\d+$/.test(p))) return new Error(`column '${column}': '${v}' is not a list of integers`);
      return { t: 'tuple', v: parts.map((p) => ({ t: 'int', v: BigInt(p) })) };
    }
    case 'json':
      try {
        return docLiteral(losslessParse(v) as JsonValue, true);
      } catch (e) {
        return new Error(`column '${column}': invalid JSON: ${(e as Error).message}`);
      }
  }
}

/** A number's literal (as a JSON number reads: integers exact), or undefined when `v` is none. */
function numberLiteral(v: string): Literal | undefined {
  if (!NUMBER.test(v)) return undefined;
  const text = v.charCodeAt(0) === 43 /* + */ ? v.slice(1) : v;
  if (/^-?\d+$/.test(text)) return { t: 'int', v: BigInt(text) };
  const f = Number(text);
  return Number.isFinite(f) ? { t: 'float', v: f } : undefined;
}

export type BuiltRow = { ok: true; row: Literal[] } | { ok: false; error: string };

const NULL: Literal = { t: 'null' };

/**
 * A CSV/TSV row under `header` as one literal per column: `id` an integer (empty: generated), an
 * empty value of a non-text column null (its default), the rest converted by their kinds.
 */
export function rowLiterals(header: string[], values: string[], kinds: Map<string, ColumnKind>, lowerHeader = header.map((h) => h.toLowerCase())): BuiltRow {
  const row = cellsOrError(header, [...values], kinds, lowerHeader);
  if (typeof row === 'string') return { ok: false, error: row };
  return { ok: true, row: row.map((c) => (typeof c === 'string' ? { t: 'string', v: c } : c)) };
}

/**
 * rowLiterals for an import's batch loop: the row's values converted in place in `values` (the
 * parser's array becomes the row) and a text value left a bare string, or why it is no row. A
 * literal object per text value and a second array per row were 3 of the ~14 objects a gcide row
 * kept alive until its batch was written (25k rows a batch: each scavenge copied them, then promoted).
 */
export function cellsOrError(header: string[], values: RowCell[], kinds: Map<string, ColumnKind>, lowerHeader: string[]): RowCell[] | string {
  if (values.length !== header.length) return `${values.length} fields where the header has ${header.length}`;
  for (let i = 0; i < header.length; i++) {
    const name = lowerHeader[i]!;
    const v = values[i] as string;
    if (name === 'id') {
      if (v === '') { values[i] = NULL; continue; }
      if (!UNSIGNED_ID.test(v)) return `id '${v}' is not an unsigned integer`;
      values[i] = { t: 'int', v: BigInt(v) };
      continue;
    }
    const kind = kinds.get(name) ?? 'string';
    if (kind === 'string') continue;
    if (v === '') { values[i] = NULL; continue; }
    const c = convert(v, kind, header[i]!);
    if (c instanceof Error) return c.message;
    values[i] = c;
  }
  return values;
}

/** A JSON Lines object: `id` (when present) is the document id, the rest its columns. */
export function objectDoc(o: JsonObject): Built {
  const doc: JsonObject = {};
  let id: JsonValue | undefined;
  for (const [k, v] of Object.entries(o)) {
    if (k.toLowerCase() === 'id') id = v;
    else doc[k] = v;
  }
  return { ok: true, doc: id === undefined || id === null ? { doc } : { id, doc } };
}
