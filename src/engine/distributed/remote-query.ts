/**
 * A shard statement as the binary-API query a remote agent runs (the 0x11E layout Sphinx 2.2, Manticore
 * and quarry agents all read): the select list as text, MATCH as an extended-syntax query, WHERE as
 * API filters (a condition they cannot express, such as an OR, becomes a select-list expression the
 * agent computes and a filter on it), ORDER BY as an extended sort clause, GROUP BY as the group
 * attribute and group sort, and the OPTIONs the protocol carries.
 */
import { API_COLLATIONS, type CollationName } from '../../util/collation.js';
import { ExpandKeywords } from '../../agent/manticore-request.js';
import { apiQuery } from '../../agent/search-write.js';
import { idfOption } from '../exec/exec-select.js';
import type { ApiFilter, ApiQuery } from '../../agent/search-request.js';
import type { Condition, Expr, Literal, NamedValue, OrderItem, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { optionMap, optionText, requireNumber } from '../values/sql-values.js';

const RANKER_IDS: Record<string, number> = {
  proximity_bm25: 0, bm25: 1, none: 2, wordcount: 3, proximity: 4, matchany: 5, fieldmask: 6, sph04: 7, expr: 8,
};
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
/**
 * Options the query carries (idf in its flags; expand_keywords in the Manticore master layout only,
 * refused when sent to a Sphinx 2.2 agent); others are refused rather than silently dropped on the agents.
 */
const CARRIED = new Set(['ranker', 'max_matches', 'cutoff', 'max_query_time', 'field_weights', 'index_weights', 'comment', 'idf', 'expand_keywords']);

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function litText(l: Literal): string {
  switch (l.kind) {
    case 'int': return l.text;
    case 'float': return l.text;
    case 'string': return quote(l.value);
    case 'null': return 'NULL';
    case 'tuple': return `(${l.items.map((i) => i.text).join(',')})`;
  }
}

/** A condition as an expression the agent evaluates to 1 or 0. */
export function conditionExpr(c: Condition): string {
  if ('target' in c && c.target.quantifier) {
    throw new SearchError('UNSUPPORTED', `${c.target.quantifier.toUpperCase()}(${c.target.expr.text}) inside OR or NOT over remote agents is not supported`);
  }
  switch (c.kind) {
    case 'and': return `(${c.children.map(conditionExpr).join(' AND ')})`;
    case 'or': return `(${c.children.map(conditionExpr).join(' OR ')})`;
    case 'not': return `NOT ${conditionExpr(c.child)}`;
    case 'compare': return `(${c.target.expr.text} ${c.op} ${litText(c.value)})`;
    case 'between': return `${c.negate ? 'NOT ' : ''}(${c.target.expr.text} >= ${c.low.text} AND ${c.target.expr.text} <= ${c.high.text})`;
    case 'in': return `${c.negate ? 'NOT ' : ''}IN(${c.target.expr.text}, ${c.values.map(litText).join(', ')})`;
    case 'is_null': return `(${c.target.expr.text} IS ${c.negate ? 'NOT ' : ''}NULL)`;
  }
}

const plainName = (e: Expr): string | undefined => (e.kind === 'column' && !e.path.length ? (e.name.toLowerCase() === 'id' ? '@id' : e.name) : undefined);

/** One leaf filter as API filters, or undefined when the protocol cannot express it. */
function leafFilter(c: Condition): ApiFilter | undefined {
  if (c.kind === 'and' || c.kind === 'or' || c.kind === 'not') return undefined;
  const attr = plainName(c.target.expr);
  if (c.target.quantifier) {
    // an API value filter on an MVA matches when any value does: ANY(mva) = v and ANY(mva) IN (...)
    const values = c.kind === 'compare' && c.op === '=' ? [c.value] : c.kind === 'in' && !c.negate ? c.values : undefined;
    if (c.target.quantifier === 'any' && attr && values?.every((v) => v.kind === 'int')) {
      return { attr, type: 0, values: values.map((v) => BigInt((v as { value: number | bigint }).value)), exclude: false };
    }
    throw new SearchError('UNSUPPORTED', `${c.target.quantifier.toUpperCase()}() filter '${c.target.expr.text}' over remote agents: use ANY(mva) = value or ANY(mva) IN (...)`);
  }
  if (!attr) return undefined;
  const int = (l: Literal) => (l.kind === 'int' ? BigInt(l.value) : undefined);
  switch (c.kind) {
    case 'compare': {
      if (c.value.kind === 'string') return c.op === '=' || c.op === '!=' ? { attr, type: 3, strings: [c.value.value], exclude: c.op === '!=' } : undefined;
      const v = int(c.value);
      if (v === undefined) {
        if (c.value.kind !== 'float') return undefined;
        const f = c.value.value;
        // float ranges are inclusive: only <= and >= keep their meaning
        if (c.op === '<=') return { attr, type: 2, fmin: -Infinity, fmax: f, exclude: false };
        if (c.op === '>=') return { attr, type: 2, fmin: f, fmax: Infinity, exclude: false };
        return undefined;
      }
      switch (c.op) {
        case '=': return { attr, type: 0, values: [v], exclude: false };
        case '!=': return { attr, type: 0, values: [v], exclude: true };
        case '<': return { attr, type: 1, min: I64_MIN, max: v - 1n, exclude: false };
        case '<=': return { attr, type: 1, min: I64_MIN, max: v, exclude: false };
        case '>': return { attr, type: 1, min: v + 1n, max: I64_MAX, exclude: false };
        case '>=': return { attr, type: 1, min: v, max: I64_MAX, exclude: false };
      }
      return undefined;
    }
    case 'between': {
      const lo = int(c.low), hi = int(c.high);
      if (lo !== undefined && hi !== undefined) return { attr, type: 1, min: lo, max: hi, exclude: c.negate };
      return { attr, type: 2, fmin: Number(c.low.value), fmax: Number(c.high.value), exclude: c.negate };
    }
    case 'in': {
      if (c.values.every((v) => v.kind === 'int')) return { attr, type: 0, values: c.values.map((v) => int(v)!), exclude: c.negate };
      if (c.values.every((v) => v.kind === 'string')) return { attr, type: 6, strings: c.values.map((v) => (v as { value: string }).value), exclude: c.negate };
      return undefined;
    }
    case 'is_null': return { attr, type: 4, isNull: true, exclude: c.negate };
  }
}

/** WHERE as filters; what they cannot express is computed as `__wN` select items and filtered = 1. */
function whereFilters(where: Condition | undefined, extra: string[]): ApiFilter[] {
  if (!where) return [];
  const leaves = where.kind === 'and' ? where.children : [where];
  return leaves.map((c) => {
    const f = leafFilter(c);
    if (f) return f;
    const alias = `__w${extra.length}`;
    extra.push(`${conditionExpr(c)} AS ${alias}`);
    return { attr: alias, type: 0, values: [1n], exclude: false } as ApiFilter;
  });
}

function sortText(items: OrderItem[]): string {
  return items.map((o) => {
    const e = o.expr;
    const name = e.kind === 'call' && e.name === 'weight' ? '@weight' : plainName(e) ?? e.text;
    return `${name} ${o.direction.toUpperCase()}`;
  }).join(', ');
}

function pairList(v: NamedValue['value'] | undefined, name: string): Array<[string, number]> {
  if (!v) return [];
  if (v.kind !== 'list') throw new SearchError('QUERY_ERROR', `option ${name}: a list (name=value, ...) expected`);
  return v.entries.map((e) => [e.name, Math.trunc(requireNumber(name, e.value))]);
}

/** The API query one agent runs for the shard statement, over its `indexes`. */
export function remoteQuery(st: SelectStatement, indexes: string, coll?: CollationName): ApiQuery {
  const opts = optionMap(st.options);
  for (const name of opts.keys()) {
    if (!CARRIED.has(name)) throw new SearchError('UNSUPPORTED', `OPTION ${name} cannot be sent to remote agents (the binary API of Sphinx 2.2 does not carry it)`);
  }
  const extra: string[] = [];
  const filters = whereFilters(st.where, extra);
  const select = [...st.items.map((i) => (i.expr.kind === 'star' ? '*' : `${i.expr.text} AS ${i.alias ?? i.name}`)), ...extra].join(', ');
  const ranker = opts.get('ranker');
  const rankerName = ranker ? (ranker.kind === 'call' ? ranker.name : optionText(ranker).toLowerCase()) : 'proximity_bm25';
  if (!(rankerName in RANKER_IDS)) throw new SearchError('UNSUPPORTED', `ranker '${rankerName}' cannot be sent to remote agents`);
  const q = apiQuery({
    indexes, query: st.match ?? '', offset: 0, limit: st.limit ?? 20, select, filters,
    ranker: RANKER_IDS[rankerName]!, rankExpr: ranker?.kind === 'call' ? ranker.arg : '',
    maxMatches: opts.has('max_matches') ? requireNumber('max_matches', opts.get('max_matches')!) : 1000,
    cutoff: opts.has('cutoff') ? requireNumber('cutoff', opts.get('cutoff')!) : 0,
    maxQueryTime: opts.has('max_query_time') ? requireNumber('max_query_time', opts.get('max_query_time')!) : 0,
    fieldWeights: pairList(opts.get('field_weights'), 'field_weights'),
    indexWeights: pairList(opts.get('index_weights'), 'index_weights'),
    comment: opts.has('comment') ? optionText(opts.get('comment')!) : '',
  });
  // the statement's collation travels in the master extension, as searchd's master sends its own
  if (coll) q.collation = API_COLLATIONS.indexOf(coll);
  const idf = opts.get('idf');
  if (idf) {
    const { plain, unnormalized } = idfOption(optionText(idf));
    q.plainIdf = plain === true;
    q.normalizedTf = unnormalized !== true;
  }
  const ek = opts.get('expand_keywords');
  if (ek) q.expandKeywords = requireNumber('expand_keywords', ek) !== 0 ? ExpandKeywords.ENABLED : ExpandKeywords.DISABLED;
  if (st.groupBy) {
    // an expression key is computed by the agent as a select item and grouped by its alias (as Manticore groups by an expression)
    const names = st.groupBy.map((e, i) => {
      const name = plainName(e);
      if (name) return name;
      q.select += `, ${e.text} AS __k${i}`;
      return `__k${i}`;
    });
    q.groupBy = names.join(',');
    if (st.groupLimit !== undefined) q.groupLimit = st.groupLimit;
    q.groupSort = st.orderBy?.length ? sortText(st.orderBy) : '@weight DESC';
    if (st.withinGroupOrderBy?.length) { q.sort = 4; q.sortBy = sortText(st.withinGroupOrderBy); }
  } else if (st.orderBy?.length) {
    q.sort = 4;
    q.sortBy = sortText(st.orderBy);
  }
  return q;
}
