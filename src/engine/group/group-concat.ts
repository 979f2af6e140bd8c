/**
 * GROUP_CONCAT's forms (Manticore's manual, Searching/Grouping.md): the plain `GROUP_CONCAT(x)` and
 * `GROUP_CONCAT(x SEPARATOR 's')` join every value of the group in match order; the limited
 * `GROUP_CONCAT(x ORDER BY k [ASC|DESC], ... [SEPARATOR 's'] LIMIT n)` keeps the first n values by its
 * own order. The per-segment fold stays a list of strings: for the limited form each entry carries its
 * order keys (JSON `[text, k1, k2, ...]`), sorted and cut when the group is output.
 */
import type { AttrValue } from '../../index/types.js';
import type { CallExpr, Expr, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { cellToSqlText } from '../values/cell-format.js';
import { exprReader } from '../expr/segment-reader.js';
import { selectAliases } from '../select-items.js';
import type { Table } from '../table.js';
import type { Collation } from '../../util/collation.js';
import type { AttrRef } from './group-plan.js';

export type ConcatOptions = NonNullable<CallExpr['concat']>;

/** How a value is printed in the joined string (floats as %f, MVAs as 1,2,3). */
export function concatText(v: AttrValue, argType: string): string {
  return cellToSqlText(v, argType === 'float' ? 'float' : Array.isArray(v) ? 'mva' : 'string') ?? '';
}

function keyJson(v: AttrValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(Number);
  return v ?? null;
}

/** The argument of a limited GROUP_CONCAT: each row read as `[text, ...order keys]` (JSON). */
export function limitedConcatArg(table: Table, arg: AttrRef, opts: ConcatOptions, st?: SelectStatement, coll?: Collation): AttrRef {
  const aliases = st ? selectAliases(st.items) : new Map<string, Expr>();
  const keys = opts.order!.map((o) => exprReader(table, o.expr, aliases, coll).reader);
  return {
    attr: -2, type: 'string', name: arg.name,
    reader: (seg) => {
      const value = arg.reader ? arg.reader(seg) : seg.attrReader(arg.attr);
      const readers = keys.map((k) => k(seg));
      return (row) => JSON.stringify([concatText(value(row), arg.type), ...readers.map((r) => keyJson(r(row)))]);
    },
  };
}

function compareKey(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** The joined string of a group's collected values. */
export function concatValue(values: string[], opts: ConcatOptions | undefined): string {
  const sep = opts?.separator ?? ',';
  if (!opts?.order) return values.join(sep);
  const order = opts.order;
  const rows = values.map((v) => JSON.parse(v) as unknown[]);
  // stable: equal keys keep match order
  rows.sort((x, y) => {
    for (let i = 0; i < order.length; i++) {
      const c = compareKey(x[i + 1], y[i + 1]);
      if (c) return order[i]!.desc ? -c : c;
    }
    return 0;
  });
  return rows.slice(0, opts.limit).map((r) => String(r[0])).join(sep);
}

/** Manticore's limits of the limited form (searchdsql.cpp): an explicit GROUP BY; not in HAVING or ORDER BY. */
export function checkLimitedConcat(st: SelectStatement, limitedAliases: string[]): void {
  if (!limitedAliases.length) return;
  if (!st.groupBy) throw new SearchError('QUERY_ERROR', 'limited GROUP_CONCAT requires an explicit GROUP BY');
  const named = (e: Expr) => e.kind === 'column' && !e.path.length && limitedAliases.includes(e.name.toLowerCase());
  const having = st.having && 'target' in st.having ? st.having.target.expr : undefined;
  if (having && named(having)) throw new SearchError('QUERY_ERROR', `limited GROUP_CONCAT alias '${(having as { name: string }).name}' is not supported in HAVING`);
  const o = st.orderBy?.find((x) => named(x.expr));
  if (o) throw new SearchError('QUERY_ERROR', `limited GROUP_CONCAT alias '${o.expr.text}' is not supported in result ORDER BY`);
}
