/**
 * Automatic schema (spec section 7): the table an INSERT into a missing table creates, inferred from
 * the values of its rows. Full-text fields come first in statement order, then attributes in statement
 * order, as test-auto-schema.rec shows.
 */
import type { Column, ColumnType, TableSchema } from '../schema/types.js';
import { SearchError } from '../util/errors.js';
import type { Literal } from './values/literal.js';

const U32_MAX = (1n << 32n) - 1n;
/** Manticore Buddy's e-mail test: such strings become string attributes, not full-text fields. */
const EMAIL = /^[^\s@'"]+@[^\s@'"]+\.[a-z]{2,}$/i;

function looksLikeJson(s: string): boolean {
  const t = s.trim();
  if (!((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}')))) return false;
  try { JSON.parse(t); return true; } catch { return false; }
}

/** The type one value suggests, or undefined for NULL (no information). */
export function inferType(l: Literal): ColumnType | undefined {
  switch (l.t) {
    case 'null': return undefined;
    case 'string':
      if (looksLikeJson(l.v)) return 'json';
      return EMAIL.test(l.v) ? 'string' : 'text';
    case 'json': return 'json';
    case 'int': return l.v >= 0n && l.v <= U32_MAX ? 'uint' : 'bigint';
    case 'float': return 'float';
    case 'bool': return 'bool';
    case 'tuple':
      return l.v.every((x) => x.t === 'int' && x.v >= 0n && x.v <= U32_MAX) ? 'mva' : 'mva64';
  }
}

/** Compatible types widen (uint -> bigint -> float, mva -> mva64, string -> text); others clash. */
const WIDER: Record<string, ColumnType> = {
  'uint+bigint': 'bigint', 'uint+float': 'float', 'bigint+float': 'float',
  'mva+mva64': 'mva64', 'string+text': 'text', 'bool+uint': 'uint', 'bool+bigint': 'bigint',
};

export function widen(a: ColumnType, b: ColumnType, column: string): ColumnType {
  if (a === b) return a;
  const w = WIDER[`${a}+${b}`] ?? WIDER[`${b}+${a}`];
  if (!w) throw new SearchError('BAD_VALUE', `incompatible types for column '${column}': ${a} and ${b}`);
  return w;
}

/**
 * The schema of a new table named `name` from an INSERT's column list and rows.
 * `id` is never a column; a column whose every value is NULL becomes text.
 */
export function inferSchema(name: string, columns: string[], rows: Literal[][]): TableSchema {
  const types = new Map<string, ColumnType>();
  const order = columns.filter((c) => c.toLowerCase() !== 'id');
  for (const row of rows) {
    columns.forEach((col, i) => {
      if (col.toLowerCase() === 'id') return;
      const t = inferType(row[i] ?? { t: 'null' });
      if (!t) return;
      const prev = types.get(col);
      types.set(col, prev ? widen(prev, t, col) : t);
    });
  }
  const all: Column[] = order.map((c) => {
    const type = types.get(c) ?? 'text';
    return { name: c, type, indexed: type === 'text', stored: type === 'text' };
  });
  return {
    name,
    columns: [...all.filter((c) => c.type === 'text'), ...all.filter((c) => c.type !== 'text')],
    settings: {},
  };
}
