/**
 * Records -> documents. JSON Lines objects keep their JSON types (`id`, when present, is the document
 * id). CSV/TSV values are text: each column gets a kind, from the table's schema when it exists or
 * from the first batch's values when the import creates it (a column whose every value reads as a
 * number is numeric), and values are converted by it.
 */
import { LosslessNumber, parse as losslessParse } from 'lossless-json';
import type { JsonObject, JsonValue } from '../engine/json/json-value.js';
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

function idValue(v: string): JsonValue | string {
  if (!UNSIGNED_ID.test(v)) return `id '${v}' is not an unsigned integer`;
  return new LosslessNumber(v);
}

/** One value by its column's kind, or an Error saying why it does not fit. */
function convert(v: string, kind: ColumnKind, column: string): JsonValue | Error {
  switch (kind) {
    case 'string': return v;
    case 'number':
      return NUMBER.test(v) ? new LosslessNumber(v.replace(/^\+/, '')) : new Error(`column '${column}': '${v}' is not a number`);
    case 'bool':
      if (/^(1|true)$/i.test(v)) return true;
      if (/^(0|false)$/i.test(v)) return false;
      return new Error(`column '${column}': '${v}' is not a bool`);
    case 'mva': {
      const parts = v.split(/[\s,]+/).filter(Boolean);
      if (!parts.every((p) => UNSIGNED_ID.test(p) || /^-\d+$/.test(p))) return new Error(`column '${column}': '${v}' is not a list of integers`);
      return parts.map((p) => new LosslessNumber(p));
    }
    case 'json':
      try {
        return losslessParse(v) as JsonValue;
      } catch (e) {
        return new Error(`column '${column}': invalid JSON: ${(e as Error).message}`);
      }
  }
}

/** A CSV/TSV row under `header`; an empty value leaves a non-text column to its default. */
export function rowDoc(header: string[], values: string[], kinds: Map<string, ColumnKind>): Built {
  if (values.length !== header.length) return { ok: false, error: `${values.length} fields where the header has ${header.length}` };
  const doc: JsonObject = {};
  let id: JsonValue | undefined;
  for (let i = 0; i < header.length; i++) {
    const name = header[i]!;
    const v = values[i]!;
    if (name.toLowerCase() === 'id') {
      if (v === '') continue;
      const r = idValue(v);
      if (typeof r === 'string') return { ok: false, error: r };
      id = r;
      continue;
    }
    const kind = kinds.get(name.toLowerCase()) ?? 'string';
    if (v === '' && kind !== 'string') continue;
    const c = convert(v, kind, name);
    if (c instanceof Error) return { ok: false, error: c.message };
    doc[name] = c;
  }
  return { ok: true, doc: id === undefined ? { doc } : { id, doc } };
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
