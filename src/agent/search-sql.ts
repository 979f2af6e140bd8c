/**
 * A binary-API query as one SphinxQL SELECT, so the API and SQL share one executor. Legacy match
 * modes are rewritten into extended syntax with the ranker Sphinx forces on them (ALL and PHRASE rank
 * by proximity, ANY by matchany, BOOLEAN not at all); sort modes become ORDER BY clauses; group
 * settings become GROUP BY / WITHIN GROUP ORDER BY with the @groupby/@count/@distinct columns.
 */
import { Aggr, ExpandKeywords, type ApiItem, type FilterNode } from './manticore-request.js';
import type { ApiFilter, ApiQuery } from './search-request.js';

export const Mode = { ALL: 0, ANY: 1, PHRASE: 2, BOOLEAN: 3, EXTENDED: 4, FULLSCAN: 5, EXTENDED2: 6 } as const;
const RANKERS = ['proximity_bm25', 'bm25', 'none', 'wordcount', 'proximity', 'matchany', 'fieldmask', 'sph04'];
/** Sphinx's group-by functions over a timestamp, as SphinxQL date functions. */
const GROUP_FUNCS: Record<number, string> = { 0: 'yearmonthday', 1: 'yearweek', 2: 'yearmonth', 3: 'year' };

/** Column aliases the reply renames back to searchd's magic attribute names. */
export const MAGIC_ALIASES: Record<string, string> = { api_groupby: '@groupby', api_count: '@count', api_distinct: '@distinct', api_expr: '@expr' };

export class ApiQueryError extends Error {}

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function ident(name: string): string {
  if (name === '@id' || name === 'id') return 'id';
  if (!/^[a-z_][a-z0-9_.]*$/i.test(name)) throw new ApiQueryError(`invalid attribute name '${name}'`);
  return name;
}

/** `@weight`, `@id`, `@group`, `@count` of Sphinx's sort and select syntax as SphinxQL. */
function magic(text: string): string {
  return text
    .replace(/@(weight|relevance|rank)\b/gi, 'weight()')
    .replace(/@id\b/gi, 'id')
    .replace(/@group\b/gi, 'groupby()')
    .replace(/@groupby\b/gi, 'groupby()')
    .replace(/@count\b/gi, 'count(*)')
    .replace(/@distinct\b/gi, 'api_distinct')
    .replace(/@expr\b/gi, 'api_expr');
}

const SPECIAL = /[\\()|\-!@~"&/^$=<>'*]/g;

/** The query text of a legacy match mode in extended syntax. */
export function matchText(q: ApiQuery): string {
  const plain = () => q.query.replace(SPECIAL, ' ').trim();
  switch (q.mode) {
    case Mode.ALL: return plain();
    case Mode.ANY: return plain().split(/\s+/).filter(Boolean).join(' | ');
    case Mode.PHRASE: { const p = plain(); return p ? `"${p}"` : ''; }
    // Boolean syntax: & is the implicit AND, the rest (| - ! and parentheses) reads the same
    case Mode.BOOLEAN: return q.query.replace(/&/g, ' ');
    default: return q.query;
  }
}

function rankerOption(q: ApiQuery): string {
  if (q.mode === Mode.ALL || q.mode === Mode.PHRASE) return 'proximity';
  if (q.mode === Mode.ANY) return 'matchany';
  if (q.mode === Mode.BOOLEAN) return 'none';
  if (q.ranker === 8) return `expr(${quote(q.rankExpr)})`;
  const name = RANKERS[q.ranker];
  if (!name) throw new ApiQueryError(`unknown ranking mode ${q.ranker}`);
  return name;
}

/** A range as BETWEEN, or as comparisons when an end is open or excluded (Manticore masters' ranges). */
function rangeSql(col: string, lo: string, hi: string, f: ApiFilter): string {
  if (!f.openLeft && !f.openRight && f.eqMin !== false && f.eqMax !== false) {
    return `${col} ${f.exclude ? 'NOT BETWEEN' : 'BETWEEN'} ${lo} AND ${hi}`;
  }
  const parts: string[] = [];
  if (!f.openLeft) parts.push(`${col} ${f.eqMin === false ? '>' : '>='} ${lo}`);
  if (!f.openRight) parts.push(`${col} ${f.eqMax === false ? '<' : '<='} ${hi}`);
  const cond = parts.join(' AND ') || 'id >= 0';
  return f.exclude ? `NOT (${cond})` : cond;
}

/** One filter as a WHERE condition; an expression filter is computed as a select item (`extra`). */
function filterSql(f: ApiFilter, extra: string[]): string {
  if (f.type === 7) {
    const alias = `api_filter${extra.length}`;
    extra.push(`${magic(f.attr)} AS ${alias}`);
    return `${alias} ${f.exclude ? '=' : '!='} 0`;
  }
  const name = f.attr === '@weight' ? 'weight()' : ident(f.attr);
  const col = f.mvaFunc === 2 ? `ALL(${name})` : name; // ANY() is what a plain MVA filter means
  switch (f.type) {
    case 0: {
      if (!f.values.length) return f.exclude ? '' : '0=1';
      return `${col} ${f.exclude ? 'NOT IN' : 'IN'} (${f.values.join(',')})`;
    }
    case 1: return rangeSql(col, String(f.min), String(f.max), f);
    case 2: {
      const lo = Number.isFinite(f.fmin) ? f.fmin : -3.4e38;
      const hi = Number.isFinite(f.fmax) ? f.fmax : 3.4e38;
      return rangeSql(col, String(lo), String(hi), f);
    }
    case 3: {
      const op = f.cmp === 1 ? '<' : f.cmp === 2 ? '>' : '=';
      const cond = `${col} ${op === '=' && f.exclude ? '!=' : op} ${quote(f.strings[0]!)}`;
      return op !== '=' && f.exclude ? `NOT (${cond})` : cond;
    }
    case 5: throw new ApiQueryError(`user variable filter on '${f.attr}' is not supported over the binary API`);
    case 6: return `${col} ${f.exclude ? 'NOT IN' : 'IN'} (${f.strings.map(quote).join(',')})`;
    case 4: return `${col} ${f.isNull !== f.exclude ? 'IS NULL' : 'IS NOT NULL'}`;
  }
}

/** The filters as conditions ANDed, or combined by the Manticore master's filter tree (root last). */
function filterConditions(q: ApiQuery, extra: string[]): string[] {
  const conds = q.filters.map((f) => filterSql(f, extra));
  const tree = q.filterTree ?? [];
  if (!tree.length) return conds.filter(Boolean);
  const seen = new Set<number>();
  const node = (at: number): string => {
    const n: FilterNode | undefined = tree[at];
    if (!n || seen.has(at)) throw new ApiQueryError(`invalid filter tree node ${at}`);
    seen.add(at);
    if (n.filter >= 0) {
      if (n.filter >= conds.length) throw new ApiQueryError(`invalid filter tree node ${at}`);
      return conds[n.filter] || 'id >= 0';
    }
    return `(${node(n.left)} ${n.or ? 'OR' : 'AND'} ${node(n.right)})`;
  };
  return [node(tree.length - 1)];
}

const AGGR_NAMES: Record<number, string> = { [Aggr.AVG]: 'avg', [Aggr.MIN]: 'min', [Aggr.MAX]: 'max', [Aggr.SUM]: 'sum', [Aggr.CAT]: 'group_concat' };

/** A Manticore master's select item as SQL: `sum(price) AS total`. */
function itemSql(it: ApiItem): string {
  if (it.expr === '*') return '*';
  const fn = AGGR_NAMES[it.aggr];
  if (it.aggr !== Aggr.NONE && !fn) throw new ApiQueryError(`unknown aggregate function ${it.aggr} in select item '${it.alias}'`);
  const sep = it.separator !== undefined && it.separator !== ',' ? ` SEPARATOR ${quote(it.separator)}` : '';
  const expr = fn ? `${fn}(${magic(it.expr)}${sep})` : magic(it.expr);
  const plainAlias = /^[a-z_][a-z0-9_]*$/i.test(it.alias);
  return plainAlias && it.alias.toLowerCase() !== expr.toLowerCase() ? `${expr} AS ${it.alias}` : expr;
}

/** Sort mode and sort-by clause as an ORDER BY list. */
function orderBy(q: ApiQuery): string {
  switch (q.sort) {
    case 0: return 'weight() DESC, id ASC';
    case 1: return `${ident(q.sortBy)} DESC, weight() DESC, id ASC`;
    case 2: return `${ident(q.sortBy)} ASC, weight() DESC, id ASC`;
    case 4: return magic(q.sortBy) || 'weight() DESC, id ASC';
    case 5: return 'api_expr DESC, id ASC';
    case 3: throw new ApiQueryError('sort mode SPH_SORT_TIME_SEGMENTS is not supported');
    default: throw new ApiQueryError(`unknown sort mode ${q.sort}`);
  }
}

/**
 * The OPTIONs a master's query flags and expand_keywords stand for (what its SELECT's OPTION idf,
 * expand_keywords, not_terms_only_allowed set); those quarry cannot run are refused by name.
 */
function flagOptions(q: ApiQuery): string[] {
  const out: string[] = [];
  if (q.plainIdf || q.normalizedTf === false) out.push(`idf='${q.plainIdf ? 'plain' : 'normalized'},${q.normalizedTf === false ? 'tfidf_unnormalized' : 'tfidf_normalized'}'`);
  if (q.expandKeywords === ExpandKeywords.DISABLED || q.expandKeywords === ExpandKeywords.ENABLED) out.push(`expand_keywords=${q.expandKeywords === ExpandKeywords.ENABLED ? 1 : 0}`);
  else if (q.expandKeywords === ExpandKeywords.MORPH_NONE) throw new ApiQueryError("morphology='none' from a master is not supported by this agent");
  else if (q.expandKeywords) throw new ApiQueryError(`unknown expand_keywords value ${q.expandKeywords}`);
  if (q.notOnlyAllowed) out.push('not_terms_only_allowed=1');
  if (q.defaultBoolOr) throw new ApiQueryError("boolean_mode='or' from a master is not supported by this agent");
  return out;
}

/** The SELECT for one table list; `tables` are already checked names. */
export function searchSql(q: ApiQuery, tables: string[]): string {
  if (q.groupFunc === 5 && q.groupBy) throw new ApiQueryError('SPH_GROUPBY_ATTRPAIR is not supported');
  if (q.mode > Mode.EXTENDED2) throw new ApiQueryError(`unknown matching mode ${q.mode}`);
  // every match carries its document id, whatever the select list aliases (searchd always sends it)
  const items = [q.items?.length ? q.items.map(itemSql).join(', ') : magic(q.select), 'id AS api_id'];
  if (q.sort === 5) items.push(`${magic(q.sortBy)} AS api_expr`);
  const grouped = q.groupBy !== '';
  let groupKey = '';
  if (grouped) {
    const func = GROUP_FUNCS[q.groupFunc];
    // a comma list groups by several attributes (what a quarry master sends for GROUP BY a, b)
    groupKey = func ? `${func}(${ident(q.groupBy)})` : q.groupBy.split(',').map((n) => ident(n.trim())).join(', ');
    items.push(`groupby() AS api_groupby`, 'count(*) AS api_count');
    if (q.groupDistinct) items.push(`count(DISTINCT ${ident(q.groupDistinct)}) AS api_distinct`);
  }
  const where: string[] = [];
  const text = q.mode === Mode.FULLSCAN ? '' : matchText(q);
  if (text.trim()) where.push(`MATCH(${quote(text)})`);
  where.push(...filterConditions(q, items));
  if (q.minId !== 0n || q.maxId !== 0xffffffffffffffffn) {
    where.push(`id BETWEEN ${q.minId} AND ${BigInt.asIntN(64, q.maxId) < 0n ? 9223372036854775807n : q.maxId}`);
  }
  let sql = `SELECT ${items.join(', ')} FROM ${tables.join(', ')}`;
  if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
  if (grouped) {
    sql += ` GROUP ${(q.groupLimit ?? 1) > 1 ? `${q.groupLimit} ` : ''}BY ${groupKey} WITHIN GROUP ORDER BY ${orderBy(q)} ORDER BY ${magic(q.groupSort) || 'groupby() DESC'}`;
  } else {
    sql += ` ORDER BY ${orderBy(q)}`;
  }
  sql += ` LIMIT ${Math.max(0, q.offset)}, ${Math.max(0, q.limit)}`;
  const options = [`ranker=${rankerOption(q)}`];
  if (q.maxMatches > 0) options.push(`max_matches=${q.maxMatches}`);
  if (q.cutoff > 0) options.push(`cutoff=${q.cutoff}`);
  if (q.maxQueryTime > 0) options.push(`max_query_time=${q.maxQueryTime}`);
  if (q.fieldWeights.length) options.push(`field_weights=(${q.fieldWeights.map(([n, w]) => `${ident(n)}=${w}`).join(', ')})`);
  if (q.indexWeights.length) options.push(`index_weights=(${q.indexWeights.map(([n, w]) => `${ident(n)}=${w}`).join(', ')})`);
  if (q.comment) options.push(`comment=${quote(q.comment)}`);
  options.push(...flagOptions(q));
  return `${sql} OPTION ${options.join(', ')}`;
}
