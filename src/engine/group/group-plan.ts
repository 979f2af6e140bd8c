/**
 * A grouping SELECT compiled: the group keys (attribute columns, MVA: each value a group) and the
 * aggregates the select list, HAVING and ORDER BY need (COUNT(*), COUNT(DISTINCT), SUM, AVG, MIN,
 * MAX). Columns are read straight from a segment's attribute columns by index, so the per-segment
 * step (group-segment.ts) needs no document materialised.
 */
import type { Collation } from '../../util/collation.js';
import type { ColumnType } from '../../schema/types.js';
import type { AttrValue } from '../../index/types.js';
import type { Expr, PathStep, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { CellKind } from '../result.js';
import { KIND_OF, selectAliases } from '../select-items.js';
import { exprReader, type SegmentReader } from '../expr/segment-reader.js';
import type { Table } from '../table.js';
import { limitedConcatArg, type ConcatOptions } from './group-concat.js';
import { DIST_NAMES, sqlDistOptions, type DistOptions } from './percentiles.js';

/** An attribute read from a segment: `attr` indexes IndexSchema.attrs, -1 is the document id. */
export interface AttrRef {
  attr: number;
  type: ColumnType | 'id';
  name: string;
  /** The group keys one value gives, when not the value itself (JSON histogram and range buckets). */
  bucket?: (v: AttrValue) => AttrValue[];
  /** An expression (`price*2`): its per-row reader over a segment (expr/segment-reader.ts); `attr` is then -2. */
  reader?: SegmentReader;
  /** The expression's formula when the core computes it (exprColumn): the core fold reads that column. */
  code?: number[];
}

/** An expression as a group key or aggregate argument. */
export function exprRef(table: Table, e: Expr, st?: SelectStatement, coll?: Collation): AttrRef {
  const r = exprReader(table, e, st ? selectAliases(st.items) : new Map(), coll);
  return { attr: -2, type: r.type, name: e.text, reader: r.reader, code: r.code };
}

export type AggFn = 'count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max' | 'concat' | 'dist';

/** One aggregate; `text` is its canonical text (`sum(price)`) for matching HAVING/ORDER BY to it. */
export interface AggSpec {
  fn: AggFn;
  arg?: AttrRef;
  text: string;
  kind: CellKind;
  /** GROUP_CONCAT's SEPARATOR and ORDER BY ... LIMIT (group-concat.ts). */
  concat?: ConcatOptions;
  /** PERCENTILES(), PERCENTILE_RANKS(), MEDIAN_ABSOLUTE_DEVIATION() (percentiles.ts): the group's values are kept. */
  dist?: DistOptions;
}

export interface GroupPlan {
  keys: AttrRef[];
  aggs: AggSpec[];
  /** WITHIN GROUP ORDER BY (no ref: weight()); default weight() DESC, Manticore's "@weight desc". */
  within?: { ref?: AttrRef; desc: boolean }[];
  /** GROUP N BY: rows kept per group (default 1). */
  keep?: number;
  /** The query's string collation (set by collectGroupsMany from the request): strings equal under it group together. */
  coll?: Collation;
}

/** The within-group order when none is given: weight() DESC. */
export const DEFAULT_WITHIN: NonNullable<GroupPlan['within']> = [{ desc: true }];

const NUMERIC = new Set<ColumnType | 'id'>(['uint', 'bigint', 'float', 'bool', 'timestamp', 'id']);
const AGG_NAMES = new Set(['count', 'sum', 'avg', 'min', 'max', 'group_concat', ...Object.keys(DIST_NAMES)]);

export function attrRef(table: Table, name: string): AttrRef {
  const lower = name.toLowerCase();
  if (lower === 'id') return { attr: -1, type: 'id', name: 'id' };
  const attrs = table.index.schema.attrs;
  const attr = attrs.findIndex((a) => a.name.toLowerCase() === lower);
  const col = table.column(lower);
  if (attr < 0 || !col) throw new SearchError('QUERY_ERROR', `table ${table.name}: group-by attribute '${name}' not found`);
  return { attr, type: col.type, name: col.name };
}

/**
 * An attribute named outside GROUP BY, with searchd's message for that clause (queuecreator.cpp): an
 * aggregate's argument is parsed as an expression ('parse error: unknown column'), COUNT(DISTINCT x) is
 * the group-count-distinct attribute, WITHIN GROUP ORDER BY the sort-by clause.
 */
export function clauseRef(table: Table, name: string, clause: 'aggregate' | 'distinct' | 'within'): AttrRef {
  const lower = name.toLowerCase();
  if (lower === 'id' || table.index.schema.attrs.some((a) => a.name.toLowerCase() === lower) && table.column(lower)) return attrRef(table, name);
  if (clause === 'aggregate' && !table.column(lower)) throw new SearchError('QUERY_ERROR', `table ${table.name}: parse error: unknown column: ${name}`);
  if (clause === 'aggregate') throw new SearchError('QUERY_ERROR', `table ${table.name}: aggregate over the full-text field '${name}' is not supported (not an attribute)`);
  const what = clause === 'distinct' ? 'group-count-distinct' : 'sort-by';
  throw new SearchError('QUERY_ERROR', `table ${table.name}: ${what} attribute '${name}' not found`);
}

/** True for COUNT/SUM/AVG/MIN/MAX calls (aggregates), whatever their arguments. */
export function isAggregateCall(e: Expr): boolean {
  // MIN(a, b) / MAX(a, b) of two arguments are the expression functions, not aggregates
  return e.kind === 'call' && AGG_NAMES.has(e.name) && !((e.name === 'min' || e.name === 'max') && e.args.length === 2);
}

/** The canonical text of an aggregate call: lower-cased name, argument as typed (`count(distinct x)`). */
export function aggText(e: Expr & { kind: 'call' }): string {
  if (e.name === 'count' && e.args[0]?.kind === 'star') return 'count(*)';
  if (e.concat || e.args.length > 1) return e.text.toLowerCase();
  const arg = e.args[0]?.text.toLowerCase() ?? '';
  return e.distinct ? `${e.name}(distinct ${arg})` : `${e.name}(${arg})`;
}

/** An aggregate's argument naming a select-list alias (`SUM(p2)` over `price*2 AS p2`) is the aliased expression. */
function aliasTarget(table: Table, a: Expr, st?: SelectStatement): Expr {
  if (!st || a.kind !== 'column' || a.path.length || table.column(a.name.toLowerCase())) return a;
  const aliased = st.items.find((i) => i.alias === a.name.toLowerCase() && !isAggregateCall(i.expr));
  return aliased ? aliased.expr : a;
}

function aggSpec(table: Table, e: Expr & { kind: 'call' }, st?: SelectStatement, coll?: Collation): AggSpec {
  const text = aggText(e);
  if (e.name === 'count' && !e.distinct && e.args.length === 1 && e.args[0]!.kind === 'star') return { fn: 'count', text, kind: 'bigint' };
  const typed = e.args[0];
  const dist = DIST_NAMES[e.name];
  // PERCENTILES(x, {values='5,50', compression=200}): the option map is the one further argument
  const distMap = dist && e.args.length === 2 && e.args[1]!.kind === 'map' ? e.args[1]!.entries : undefined;
  if ((e.args.length !== 1 && !distMap) || !typed || typed.kind === 'star') {
    throw new SearchError('UNSUPPORTED', `unsupported select expression '${e.text}'`);
  }
  const a = aliasTarget(table, typed, st);
  if (e.distinct) {
    if (e.name !== 'count') throw new SearchError('UNSUPPORTED', `unsupported select expression '${e.text}'`);
    // any column kind or expression: values read per row (an MVA or JSON array counts each element)
    const plain = a.kind === 'column' && !a.path.length ? clauseRef(table, a.name, 'distinct') : undefined;
    if (plain?.type === 'text') throw new SearchError('QUERY_ERROR', `COUNT(DISTINCT) over the text field '${a.text}' is not supported`);
    const arg = plain && plain.type !== 'json' ? plain : exprRef(table, a, st, coll);
    return { fn: 'count_distinct', arg, text, kind: 'bigint' };
  }
  // searchd (sphinxsort.cpp, SetupAggregateExpr) will not guess a JSON value's type for SUM/AVG/MIN/MAX/GROUP_CONCAT
  if (a.kind === 'column' && a.path.length) {
    throw new SearchError('QUERY_ERROR', `table ${table.name}: ambiguous attribute type '${typed.text}', use INTEGER(), BIGINT() or DOUBLE() conversion functions`);
  }
  // searchd's SetupAggregateExpr refuses MIN/MAX/SUM/AVG over a string: a string attribute, a stored
  // text field (read from the docstore as a string) or a string expression
  const numericAgg = e.name === 'min' || e.name === 'max' || e.name === 'sum' || e.name === 'avg';
  const notOnString = () => new SearchError('QUERY_ERROR', `table ${table.name}: ${e.name.toUpperCase()}() cannot be used on text/string column '${a.text}'`);
  const col = a.kind === 'column' ? table.column(a.name.toLowerCase()) : undefined;
  // a stored text field fails here: clauseRef would refuse it as no attribute; a string attribute or
  // expression fails by its type below
  if (numericAgg && col?.type === 'text' && col.stored) throw notOnString();
  // a string or MVA attribute named directly is refused earlier, by the sorter setup (queuecreator.cpp)
  if (numericAgg && (col?.type === 'string' || col?.type === 'mva' || col?.type === 'mva64')) {
    throw new SearchError('QUERY_ERROR', `table ${table.name}: can not aggregate non-scalar attribute '${col.name}'`);
  }
  // SUM(price*2): the argument is an expression read per row (expr/segment-reader.ts)
  const arg = a.kind === 'column' ? clauseRef(table, a.name, 'aggregate') : exprRef(table, a, st, coll);
  if (numericAgg && arg.type === 'string') throw notOnString();
  if (e.name === 'count') throw new SearchError('UNSUPPORTED', `unsupported select expression '${e.text}'`);
  if (e.name === 'group_concat') {
    if (arg.type === 'json' || arg.type === 'text') throw new SearchError('QUERY_ERROR', `GROUP_CONCAT() over the ${arg.type} attribute '${a.text}' is not supported`);
    if (e.concat?.order) return { fn: 'concat', arg: limitedConcatArg(table, arg, e.concat, st, coll), text, kind: 'string', concat: e.concat };
    return { fn: 'concat', arg, text, kind: 'string', ...(e.concat ? { concat: e.concat } : {}) };
  }
  if (!NUMERIC.has(arg.type)) {
    throw new SearchError('QUERY_ERROR', `${e.name.toUpperCase()}() over the ${arg.type} attribute '${a.text}' is not supported`);
  }
  if (dist) return { fn: 'dist', arg, text, kind: 'string', dist: sqlDistOptions(dist, distMap) };
  const kind: CellKind = e.name === 'avg' || arg.type === 'float' ? 'float' : 'bigint';
  return { fn: e.name as AggFn, arg, text, kind };
}

/** Collects the aggregates of an expression tree (select items, HAVING and ORDER BY share them). */
export function collectAggs(table: Table, e: Expr, into: AggSpec[], st?: SelectStatement, coll?: Collation): void {
  if (e.kind === 'call' && isAggregateCall(e)) {
    const spec = aggSpec(table, e, st, coll);
    if (!into.some((x) => x.text === spec.text)) into.push(spec);
  }
}

/** The kind of a group key column in the output (`groupby()`). */
export function keyKind(k: AttrRef): CellKind {
  if (k.type === 'id') return 'bigint';
  if (k.type === 'json') return 'string';
  if (k.type === 'mva' || k.type === 'mva64') return 'bigint';
  return KIND_OF[k.type];
}

/** The keys of GROUP BY (aliases of plain columns resolve to the column); `coll`: the statement's collation, for expression keys. */
export function groupKeys(table: Table, st: SelectStatement, coll?: Collation): AttrRef[] {
  return (st.groupBy ?? []).map((e) => {
    let target = e;
    if (e.kind === 'column' && !e.path.length) {
      const aliased = st.items.find((i) => i.alias && i.alias === e.name.toLowerCase());
      if (aliased) target = aliased.expr;
    }
    if (target.kind !== 'column') return exprRef(table, target, st, coll);
    // a stored field the statement selects (a FACET selects its key) is in searchd's schema as a docstore
    // expression, which it refuses to group by (queuecreator.cpp); one not selected is not found
    const col = table.column(target.name);
    if (col?.type === 'text' && col.stored && !target.path.length && st.items.some((i) => i.expr.kind === 'star' ||
      (i.expr.kind === 'column' && !i.expr.path.length && i.expr.name.toLowerCase() === col.name.toLowerCase()))) {
      throw new SearchError('QUERY_ERROR', `table ${table.name}: unable to group by stored field '${target.name}'`);
    }
    const ref = attrRef(table, target.name);
    if (target.path.length) return jsonPathRef(table, ref, target.path, e.text);
    if (ref.type === 'json' || ref.type === 'text') throw new SearchError('UNSUPPORTED', `GROUP BY the ${ref.type} column '${e.text}' is not supported yet`);
    return ref;
  });
}

/** WITHIN GROUP ORDER BY items: weight(), id or attribute columns (aliases of those resolve). */
export function withinOrder(table: Table, st: SelectStatement): GroupPlan['within'] {
  if (!st.withinGroupOrderBy) return undefined;
  return st.withinGroupOrderBy.map((o) => {
    let e = o.expr;
    if (e.kind === 'column' && !e.path.length) {
      const aliased = st.items.find((i) => i.alias && i.alias === (e as { name: string }).name.toLowerCase());
      if (aliased) e = aliased.expr;
    }
    const desc = o.direction === 'desc';
    if (e.kind === 'call' && e.name === 'weight' && e.args.length === 0) return { desc };
    if (e.kind !== 'column' || e.path.length) throw new SearchError('UNSUPPORTED', `WITHIN GROUP ORDER BY '${o.expr.text}' is not supported yet (only weight(), id and attributes)`);
    const ref = clauseRef(table, e.name, 'within');
    if (ref.type === 'json' || ref.type === 'mva' || ref.type === 'mva64' || ref.type === 'text') {
      throw new SearchError('QUERY_ERROR', `table ${table.name}: WITHIN GROUP ORDER BY the ${ref.type} attribute '${e.name}' is not supported`);
    }
    return { ref, desc };
  });
}

/** One JSON value as group keys: an array gives each element (as an MVA does), an object or null none. */
function jsonKeys(v: unknown): AttrValue[] {
  if (Array.isArray(v)) return v.flatMap(jsonKeys);
  if (typeof v === 'string' || typeof v === 'number') return [v];
  if (typeof v === 'boolean') return [v ? 1 : 0];
  return [];
}

/**
 * GROUP BY a JSON path (`meta.color`, `j.tags[0]`): the value at the path is the key; an array makes
 * each element a group, and documents without a scalar there are in no group.
 */
export function jsonPathRef(table: Table, ref: AttrRef, path: PathStep[], text: string): AttrRef {
  if (ref.type !== 'json') throw new SearchError('QUERY_ERROR', `table ${table.name}: '${text}' is not a JSON attribute path`);
  const bucket = (raw: AttrValue): AttrValue[] => {
    if (typeof raw !== 'string') return [];
    let cur: unknown;
    try { cur = JSON.parse(raw); } catch { return []; }
    for (const step of path) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[step] : undefined;
    return jsonKeys(cur);
  };
  return { ...ref, name: text, bucket };
}
