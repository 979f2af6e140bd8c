/**
 * HAVING and ORDER BY over groups. Both name aggregates (`count(*)`, `sum(price)`), select-list
 * aliases, GROUPBY(), weight() or group-by columns; values come from the merged group.
 */
import type { Condition, Expr, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Cell } from '../result.js';
import { fromSql } from '../values/sql-values.js';
import type { Table } from '../table.js';
import { compareValues, literalValue, type Scalar, type StringCompare } from '../values/value-compare.js';
import { aggText, isAggregateCall, type GroupPlan } from './group-plan.js';
import type { PartialGroup } from './group-segment.js';

export interface GroupRow { g: PartialGroup; aggs: Cell[] }

type Reader = (r: GroupRow) => Cell;

/** How a HAVING/ORDER BY expression reads a group; `clause` names the clause in errors. */
function reader(table: Table, st: SelectStatement, plan: GroupPlan, e: Expr, clause: string): Reader {
  // a group key named as written: an alias of a JSON path key (`j.s AS js ... GROUP BY js`) or the path itself
  const named = e.kind === 'column' ? plan.keys.findIndex((x) => !x.reader && x.attr !== -1 && x.bucket && x.name.toLowerCase() === e.text.toLowerCase()) : -1;
  if (named >= 0) return (r) => r.g.key[named] as Cell;
  if (e.kind === 'column' && !e.path.length) {
    const name = e.name.toLowerCase();
    const aliased = st.items.find((i) => i.alias === name);
    if (aliased && !(aliased.expr.kind === 'column' && aliased.expr.name.toLowerCase() === name)) {
      return reader(table, st, plan, aliased.expr, clause);
    }
    const target = aliased?.expr.kind === 'column' ? aliased.expr.name.toLowerCase() : name;
    if (target === 'id') return (r) => r.g.bestDoc;
    const k = plan.keys.findIndex((x) => x.name.toLowerCase() === target);
    if (k >= 0) return (r) => r.g.key[k] as Cell;
    const attr = table.index.schema.attrs.findIndex((a) => a.name.toLowerCase() === target);
    if (attr >= 0) return (r) => (table.index.getAttrs(r.g.bestDoc)?.[attr] ?? null) as Cell;
  }
  // FACET() in a facet's ORDER BY is its group key, as GROUPBY()
  if (e.kind === 'call' && (e.name === 'groupby' || e.name === 'facet') && e.args.length === 0 && plan.keys.length) return (r) => r.g.key[0] as Cell;
  if (e.kind === 'call' && e.name === 'weight' && e.args.length === 0) return (r) => BigInt(r.g.bestWeight);
  if (clause === 'ORDER BY' && e.kind === 'call' && e.name === 'rand' && e.args.length === 0) {
    // ORDER BY RAND() is Manticore's @random sort: groups refuse it (QueueCreator_c::SetupGroupSortingFunc);
    // the one implicit group of aggregates without GROUP BY has nothing to order
    if (st.groupBy) throw new SearchError('QUERY_ERROR', `table ${table.name}: groups can not be sorted by @random`);
    return () => null;
  }
  if (isAggregateCall(e)) {
    const j = plan.aggs.findIndex((a) => a.text === aggText(e as Expr & { kind: 'call' }));
    if (j >= 0) return (r) => r.aggs[j]!;
  }
  // an expression key (GROUP BY an expression alias) reads the group's key
  const ek = plan.keys.findIndex((x) => x.reader && x.name === e.text);
  if (ek >= 0) return (r) => r.g.key[ek] as Cell;
  throw new SearchError('QUERY_ERROR', `table ${table.name}: ${clause} '${e.text}' is not an aggregate, alias or group-by column of this query`);
}

function scalar(v: Cell): Scalar | null {
  if (v === null || Array.isArray(v)) return null;
  return v;
}

function test(table: Table, st: SelectStatement, plan: GroupPlan, c: Condition): (r: GroupRow) => boolean {
  switch (c.kind) {
    case 'and': { const ps = c.children.map((x) => test(table, st, plan, x)); return (r) => ps.every((p) => p(r)); }
    case 'or': { const ps = c.children.map((x) => test(table, st, plan, x)); return (r) => ps.some((p) => p(r)); }
    case 'not': { const p = test(table, st, plan, c.child); return (r) => !p(r); }
    case 'is_null': { const rd = reader(table, st, plan, c.target.expr, 'HAVING'); return (r) => (rd(r) === null) !== c.negate; }
    default: break;
  }
  if (c.target.quantifier) throw new SearchError('UNSUPPORTED', `HAVING ${c.target.quantifier.toUpperCase()}() is not supported`);
  const rd = reader(table, st, plan, c.target.expr, 'HAVING');
  const strings = plan.coll?.compare;
  if (c.kind === 'compare') {
    const lit = literalValue(fromSql(c.value));
    return (r) => { const v = scalar(rd(r)); return v !== null && compareValues(v, lit, c.op, strings); };
  }
  if (c.kind === 'between') {
    const lo = literalValue(fromSql(c.low)), hi = literalValue(fromSql(c.high));
    return (r) => { const v = scalar(rd(r)); return v !== null && (compareValues(v, lo, '>=', strings) && compareValues(v, hi, '<=', strings)) !== c.negate; };
  }
  const lits = c.values.map((x) => literalValue(fromSql(x)));
  return (r) => { const v = scalar(rd(r)); return v !== null && lits.some((l) => compareValues(v, l, '=', strings)) !== c.negate; };
}

export function groupHaving(table: Table, st: SelectStatement, plan: GroupPlan, rows: GroupRow[]): GroupRow[] {
  if (!st.having) return rows;
  const p = test(table, st, plan, st.having);
  return rows.filter(p);
}

function compareCells(a: Cell, b: Cell, strings?: StringCompare): number {
  if (a === b) return 0;
  // the common keys (integers, counts) without compareValues' coercions
  if (typeof a === typeof b && (typeof a === 'number' || typeof a === 'bigint')) {
    if ((a as number) < (b as number)) return -1;
    if ((a as number) > (b as number)) return 1;
  }
  if (a === null) return -1;
  if (b === null) return 1;
  const x = scalar(a), y = scalar(b);
  if (x === null || y === null) return String(a) < String(b) ? -1 : 1;
  if (typeof x === 'string' && typeof y === 'string' && strings) return strings(x, y);
  return compareValues(x, y, '<') ? -1 : compareValues(x, y, '>') ? 1 : 0;
}

/** Sorts groups: ORDER BY items (default weight() DESC), ties by the earliest matching row. */
export function groupOrder(table: Table, st: SelectStatement, plan: GroupPlan, rows: GroupRow[]): void {
  const keys = (st.orderBy ?? []).map((o) => ({ rd: reader(table, st, plan, o.expr, 'ORDER BY'), desc: o.direction === 'desc' }));
  if (!keys.length) keys.push({ rd: (r) => BigInt(r.g.bestWeight), desc: true });
  const values = new Map(rows.map((r) => [r, keys.map((k) => k.rd(r))]));
  rows.sort((a, b) => {
    const va = values.get(a)!, vb = values.get(b)!;
    for (let i = 0; i < keys.length; i++) {
      const c = compareCells(va[i]!, vb[i]!, plan.coll?.compare);
      if (c) return keys[i]!.desc ? -c : c;
    }
    return a.g.firstOrd - b.g.firstOrd;
  });
}
