/**
 * GROUP_CONCAT over the shards of a distributed table. The plain form is each shard's list joined with
 * the separator. The limited form, `GROUP_CONCAT(x ORDER BY k1, ... LIMIT n)`, needs the order keys on
 * the master: each shard sends its n first values and, beside them, each key's n values in the same
 * order (joined by a unit separator, hidden items), the master zips them, sorts the shards' entries by
 * the keys (a shard's own order kept on ties) and keeps n, as one table's fold does (group-concat.ts).
 */
import type { CallExpr, SelectItem } from '../../sql/ast.js';
import { parseSql } from '../../sql/parse-sql.js';
import { SearchError } from '../../util/errors.js';
import type { Cell } from '../result.js';

/** How the master joins one GROUP_CONCAT column. */
export interface ConcatMerge {
  separator: string;
  limit?: number;
  /** Per order key: its hidden column and direction. */
  keys: Array<{ source: string; desc: boolean }>;
}

/** Between the entries of the shards' lists: a byte no text a user groups is expected to hold. */
const UNIT = '\x1f';

function parsedItem(text: string, alias: string): SelectItem {
  const st = parseSql(`SELECT ${text} AS ${alias} FROM x`)[0];
  if (!st || st.kind !== 'select') throw new SearchError('QUERY_ERROR', `internal: cannot build ${text}`);
  return st.items[0]!;
}

/** The shard items of a GROUP_CONCAT output `alias`, and how the master joins them. */
export function concatShardItems(e: CallExpr, alias: string): { items: SelectItem[]; merge: ConcatMerge } {
  const c = e.concat;
  const separator = c?.separator ?? ',';
  if (!c?.order) return { items: [parsedItem(e.text, alias)], merge: { separator, keys: [] } };
  const order = c.order.map((o) => `${o.expr.text} ${o.desc ? 'DESC' : 'ASC'}`).join(', ');
  const limit = c.limit !== undefined ? ` LIMIT ${c.limit}` : '';
  const list = (x: string) => `GROUP_CONCAT(${x} ORDER BY ${order} SEPARATOR '${UNIT}'${limit})`;
  const items = [parsedItem(list(e.args[0]!.text), alias)];
  const keys = c.order.map((o, j) => {
    items.push(parsedItem(list(o.expr.text), `${alias}_k${j}`));
    return { source: `${alias}_k${j}`, desc: o.desc };
  });
  return { items, merge: { separator, limit: c.limit, keys } };
}

function compareKeys(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  if (a !== '' && b !== '' && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One group's value from its shards' heads: `cell(head, source)` reads a head's column, `count(head)`
 * its rows in the group (how many entries its lists hold, so an empty value is told from no value).
 */
export function mergedConcat(m: ConcatMerge, heads: number, cell: (head: number, source: string) => Cell, count: (head: number) => number, source: string): string {
  const parts: string[][] = [];
  for (let h = 0; h < heads; h++) {
    const text = cell(h, source);
    if (!m.keys.length) {
      if (text !== null && text !== '') parts.push([String(text)]);
      continue;
    }
    const n = Math.min(count(h), m.limit ?? Infinity);
    if (!n) continue;
    const split = (v: Cell) => String(v ?? '').split(UNIT).slice(0, n);
    const values = split(text);
    const keys = m.keys.map((k) => split(cell(h, k.source)));
    values.forEach((v, i) => parts.push([v, ...keys.map((k) => k[i] ?? '')]));
  }
  if (!m.keys.length) return parts.map((p) => p[0]).join(m.separator);
  parts.sort((x, y) => {
    for (let i = 0; i < m.keys.length; i++) {
      const c = compareKeys(x[i + 1]!, y[i + 1]!);
      if (c) return m.keys[i]!.desc ? -c : c;
    }
    return 0;
  });
  return parts.slice(0, m.limit).map((p) => p[0]).join(m.separator);
}
