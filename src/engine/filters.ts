/**
 * WHERE conditions -> the index's filters. Plain comparisons, BETWEEN and IN on scalar attributes
 * (and id) go to the index, which evaluates them in the core. Anything else (OR, NOT, MVA and JSON
 * conditions, IS NULL) is evaluated here as a predicate over a document's attributes; the engine
 * turns the documents it accepts into an `id IN (...)` filter.
 */
import type { Condition, Expr, FilterTarget, Literal as SqlLiteral } from '../sql/ast.js';
import type { AttrValue, Filter } from '../index/types.js';
import { SearchError } from '../util/errors.js';
import { parseStoredJson, storedJsonText } from './json/stored-json.js';
import { fromSql } from './values/sql-values.js';
import type { Table } from './table.js';
import { compareValues, literalValue, type StringCompare } from './values/value-compare.js';
import { collation, type Collation } from '../util/collation.js';
import { compileExpr, type CompiledExpr } from './expr/compile.js';
import { sortCode } from './expr/sort-code.js';

/** Expression targets compiled once per statement (the condition tree is the statement's, which the parse
 * cache may share between sessions: one compilation per collation). */
const compiledTargets = new WeakMap<object, Map<string, CompiledExpr>>();

/** An expression target's value on one document, as the attribute value a filter compares. */
function exprTargetValue(table: Table, e: FilterTarget['expr'], docId: bigint, attrs: Map<string, AttrValue>, coll?: Collation): AttrValue {
  let byColl = compiledTargets.get(e);
  if (!byColl) compiledTargets.set(e, (byColl = new Map()));
  let c = byColl.get(coll?.name ?? '');
  if (!c) { c = compileExpr(e, { table, collation: coll }); byColl.set(coll?.name ?? '', c); }
  const v = c.eval({ docId, weight: 0, attrs });
  if (v === undefined || v === null) return null;
  if (c.type === 'json') return typeof v === 'object' ? JSON.stringify(v) : typeof v === 'boolean' ? Number(v) : (v as AttrValue);
  return v as AttrValue;
}

export interface SplitFilters {
  filters: Filter[];
  /** Conditions the index cannot take; all must hold. */
  predicates: Condition[];
}

const SCALAR = new Set(['uint', 'bigint', 'float', 'bool', 'timestamp', 'string']);

/** The attribute a filter target names: 'id' or a scalar column; undefined when not a plain one. */
function plainAttr(table: Table, target: FilterTarget): string | undefined {
  if (target.quantifier || target.expr.kind !== 'column' || target.expr.path.length) return undefined;
  const name = target.expr.name.toLowerCase();
  if (name === 'id') return 'id';
  const col = table.column(name);
  return col && SCALAR.has(col.type) ? col.name : undefined;
}

function attrKind(table: Table, attr: string): string {
  return attr === 'id' ? 'bigint' : table.column(attr)!.type;
}

/** A float bound on a 64-bit column: 1e309 and -1e309 (infinities) compare as the type's ends. */
function int64Bound(v: number): bigint {
  if (Number.isFinite(v)) return BigInt(Math.trunc(v));
  return v > 0 ? 0x7fffffffffffffffn : v < 0 ? -0x8000000000000000n : 0n;
}

/** A literal as the value a filter on `attr` compares with. */
function filterValue(table: Table, attr: string, l: SqlLiteral): number | bigint | string {
  const kind = attrKind(table, attr);
  const v = literalValue(fromSql(l));
  if (kind === 'string') return typeof v === 'string' ? v : String(v);
  if (typeof v === 'string') throw new SearchError('QUERY_ERROR', `unsupported filter type 'string' on attribute '${attr}'`);
  if (kind === 'bigint') return typeof v === 'bigint' ? v : int64Bound(v);
  // an integer column keeps an integer no double holds exactly: as a Number, 2^64+1 was 2^64, which the
  // core's 64-bit words read as 0 ('u = 18446744073709551617' matched u = 0); index/attr-filters.ts past64Filter
  if (typeof v === 'bigint') return kind !== 'float' && !Number.isSafeInteger(Number(v)) ? v : Number(v);
  return v;
}

/**
 * A numeric expression target the core can compute (`price*2 AS p ... WHERE p > 5`) as a filter the
 * index evaluates over core-computed values; undefined when it is not one (then a host predicate).
 */
function exprFilter(table: Table, c: Condition): Filter | undefined {
  if ((c.kind !== 'compare' && c.kind !== 'between' && c.kind !== 'in') || c.target.quantifier) return undefined;
  const e = c.target.expr;
  if (e.kind === 'column' || e.kind === 'literal') return undefined;
  const num = (l: SqlLiteral): number | bigint | undefined => {
    const v = l.kind === 'int' || l.kind === 'float' ? literalValue(fromSql(l)) : undefined;
    return typeof v === 'number' || typeof v === 'bigint' ? v : undefined;
  };
  const values = c.kind === 'compare' ? [c.value] : c.kind === 'between' ? [c.low, c.high] : c.values;
  const nums = values.map(num);
  if (nums.some((v) => v === undefined)) return undefined;
  let code: number[];
  try { code = sortCode(table, e, new Map()); } catch { return undefined; }
  const n = nums as (number | bigint)[];
  if (c.kind === 'compare') return { attr: e.text, code, op: c.op, value: n[0]! };
  if (c.kind === 'between') return { attr: e.text, code, op: 'between', low: n[0]!, high: n[1]!, negate: c.negate };
  return { attr: e.text, code, op: 'in', values: n, negate: c.negate };
}

function toFilter(table: Table, c: Condition): Filter | undefined {
  const computed = exprFilter(table, c);
  if (computed) return computed;
  if (c.kind === 'compare' || c.kind === 'between' || c.kind === 'in') {
    const attr = plainAttr(table, c.target);
    if (!attr) return undefined;
    const kind = attrKind(table, attr);
    if (c.kind === 'compare') {
      if (kind === 'string' && c.op !== '=' && c.op !== '!=') return undefined;
      return { attr, op: c.op, value: filterValue(table, attr, c.value) };
    }
    if (c.kind === 'between') {
      if (kind === 'string') return undefined;
      return { attr, op: 'between', low: filterValue(table, attr, c.low) as number | bigint,
        high: filterValue(table, attr, c.high) as number | bigint, negate: c.negate };
    }
    return { attr, op: 'in', values: c.values.map((v) => filterValue(table, attr, v)), negate: c.negate };
  }
  return undefined;
}

/** The WHERE tree with targets naming a select-list alias (`price*2 AS p2 ... WHERE p2 > 5`) replaced by the expression. */
export function resolveAliases(table: Table, c: Condition, aliases: Map<string, Expr>): Condition {
  switch (c.kind) {
    case 'and': case 'or': return { ...c, children: c.children.map((x) => resolveAliases(table, x, aliases)) };
    case 'not': return { ...c, child: resolveAliases(table, c.child, aliases) };
    default: {
      const e = c.target.expr;
      if (e.kind !== 'column' || e.path.length || table.column(e.name) || e.name.toLowerCase() === 'id') return c;
      const alias = aliases.get(e.name.toLowerCase());
      return alias ? { ...c, target: { ...c.target, expr: alias } } : c;
    }
  }
}

/** Splits a WHERE tree into index filters and leftover predicates. */
export function splitFilters(table: Table, where: Condition | undefined): SplitFilters {
  const out: SplitFilters = { filters: [], predicates: [] };
  const visit = (c: Condition) => {
    if (c.kind === 'and') { c.children.forEach(visit); return; }
    checkColumns(table, c);
    const f = toFilter(table, c);
    if (f) out.filters.push(f); else out.predicates.push(c);
  };
  if (where) visit(where);
  return out;
}

function checkColumns(table: Table, c: Condition): void {
  switch (c.kind) {
    case 'and': case 'or': c.children.forEach((x) => checkColumns(table, x)); return;
    case 'not': checkColumns(table, c.child); return;
    default: {
      const e = c.target.expr;
      if (e.kind !== 'column' || e.name.toLowerCase() === 'id') return;
      const col = table.column(e.name);
      if (!col) throw new SearchError('QUERY_ERROR', `table ${table.name}: parse error: unknown column: ${e.name}`);
      // a field's text lives in the docstore, not among the attributes: searchd refuses the filter
      // (sphinxfilter.cpp TryToCreateExpressionFilter) rather than compare nothing and answer no rows
      if (col.type === 'text') {
        throw new SearchError('QUERY_ERROR', `table ${table.name}: unsupported filter on field '${col.name}' (filters are supported only on attributes, not stored fields)`);
      }
    }
  }
}

/** The value a target reads from a document: a column, id, or a JSON path inside a column. */
function targetValue(table: Table, t: FilterTarget, docId: bigint, attrs: Map<string, AttrValue>, coll?: Collation): AttrValue | undefined {
  const cur = jsonTarget(table, t, attrs);
  if (cur !== NOT_JSON) return jsonAttrValue(cur);
  const e = t.expr;
  if (e.kind !== 'column') return exprTargetValue(table, e, docId, attrs, coll);
  const name = e.name.toLowerCase();
  return name === 'id' ? docId : attrs.get(table.column(name)?.name ?? name);
}

/** jsonTarget's answer for a target that names no JSON path. */
const NOT_JSON: unique symbol = Symbol('not a JSON path');

/**
 * The value at a target's JSON path inside a stored JSON attribute (parsed as stored-json.ts reads it; undefined
 * when absent), or NOT_JSON when the target is not a path inside a column (`id.x` reads the id, as before).
 */
function jsonTarget(table: Table, t: FilterTarget, attrs: Map<string, AttrValue>): unknown {
  const e = t.expr;
  if (e.kind !== 'column' || !e.path.length) return NOT_JSON;
  const name = e.name.toLowerCase();
  if (name === 'id') return NOT_JSON;
  const v = attrs.get(table.column(name)?.name ?? name);
  let cur: unknown = typeof v === 'string' ? parseStoredJson(v) : undefined;
  for (const step of e.path) cur = cur == null ? undefined : (cur as Record<string | number, unknown>)[step];
  return cur;
}

function jsonAttrValue(cur: unknown): AttrValue {
  if (cur === undefined || cur === null) return null;
  return typeof cur === 'object' ? storedJsonText(cur) : (cur as AttrValue);
}

/**
 * A condition over a JSON array as searchd's filters take it (sphinxfilter.cpp SetupJsonExpr -> ExprJsonIn): a
 * string `=`, `!=` or IN matches when any string element does, and so does a numeric one with `any()` (JSON
 * /search's `any(j.a)`) when any numeric element does; the exclude forms negate that. Undefined: not such a case.
 */
function jsonArrayHolds(c: Condition, arr: unknown[], quantifier: FilterTarget['quantifier'], coll: Collation): boolean | undefined {
  let positive: Condition;
  let exclude = false;
  let strings: boolean;
  if (c.kind === 'compare') {
    strings = c.value.kind === 'string';
    if (strings && c.op !== '=' && c.op !== '!=') return undefined;
    exclude = c.op === '!=';
    positive = exclude ? { ...c, op: '=' } : c;
  } else if (c.kind === 'in' || c.kind === 'between') {
    strings = c.kind === 'in' && c.values.length > 0 && c.values.every((x) => x.kind === 'string');
    exclude = c.negate;
    positive = { ...c, negate: false };
  } else return undefined;
  if (!strings && quantifier !== 'any') return undefined;
  const fits = (x: unknown) => (strings ? typeof x === 'string' : typeof x === 'number' || typeof x === 'bigint');
  const hit = arr.some((x) => fits(x) && holdsScalar(positive, x as AttrValue, strings ? coll.compare : undefined));
  return hit !== exclude;
}

function holdsScalar(c: Condition, v: AttrValue | undefined, strings?: StringCompare): boolean {
  switch (c.kind) {
    case 'compare': return v != null && !Array.isArray(v) && compareValues(v, literalValue(fromSql(c.value)), c.op, strings);
    case 'between': {
      if (v == null || Array.isArray(v)) return false;
      const ok = compareValues(v, literalValue(fromSql(c.low)), '>=', strings) && compareValues(v, literalValue(fromSql(c.high)), '<=', strings);
      return ok !== c.negate;
    }
    case 'in': {
      const found = v != null && !Array.isArray(v) && c.values.some((x) => compareValues(v, literalValue(fromSql(x)), '=', strings));
      return found !== c.negate;
    }
    default: return false;
  }
}

/** Evaluates a condition on one document (MVA: any element, or all with ALL()). */
export function evalCondition(
  table: Table, c: Condition, docId: bigint, attrs: Map<string, AttrValue>, coll: Collation = collation(undefined),
): boolean {
  switch (c.kind) {
    case 'and': return c.children.every((x) => evalCondition(table, x, docId, attrs, coll));
    case 'or': return c.children.some((x) => evalCondition(table, x, docId, attrs, coll));
    case 'not': return !evalCondition(table, c.child, docId, attrs, coll);
    case 'is_null': {
      const v = targetValue(table, c.target, docId, attrs, coll);
      return (v === null || v === undefined) !== c.negate;
    }
    default: {
      const cur = jsonTarget(table, c.target, attrs);
      const held = Array.isArray(cur) ? jsonArrayHolds(c, cur, c.target.quantifier, coll) : undefined;
      if (held !== undefined) return held;
      const v = cur === NOT_JSON ? targetValue(table, c.target, docId, attrs, coll) : jsonAttrValue(cur);
      if (Array.isArray(v)) {
        const each = (x: bigint) => holdsScalar(c, x);
        return c.target.quantifier === 'all' ? v.length > 0 && v.every(each) : v.some(each);
      }
      // a string (a STRING attribute or a JSON string) compares under the query's collation, as searchd's
      // string filters and Expr_StrCmp_c do
      return holdsScalar(c, v, typeof v === 'string' ? coll.compare : undefined);
    }
  }
}
