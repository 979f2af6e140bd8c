/**
 * The master's side of SEARCH in a Manticore master's layout (command 0x128, master version 35, as
 * manticoresearch's `SearchRequestBuilder_c::SendQuery` writes it): the Sphinx fields, then each
 * filter's bounds and MVA function, the filter tree, the select list as parsed items, and the later
 * extensions, all empty. A Manticore agent reads this layout; quarry's agent reads it too
 * (search-request.ts, manticore-request.ts).
 */
import { Aggr, MANTICORE_MASTER_VERSION, type ApiItem } from './manticore-request.js';
import type { ApiQuery } from './search-request.js';
import { writeSearchQuery } from './search-write.js';
import { ApiWriter } from './wire.js';

const AGGR_BY_NAME: Record<string, number> = { avg: Aggr.AVG, min: Aggr.MIN, max: Aggr.MAX, sum: Aggr.SUM, group_concat: Aggr.CAT };

/** Splits a select list at its top-level commas (not inside parentheses or quotes). */
export function splitSelect(select: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < select.length; i++) {
    const c = select[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) { out.push(select.slice(start, i).trim()); start = i + 1; }
  }
  out.push(select.slice(start).trim());
  return out.filter(Boolean);
}

/** A select list as Manticore's items: `sum(x) AS s` is {alias s, expr x, SUM}. */
export function selectItems(select: string): ApiItem[] {
  return splitSelect(select).map((text) => {
    const as = /^(.*\S)\s+AS\s+([A-Za-z_][A-Za-z0-9_]*)$/is.exec(text);
    const expr = as ? as[1]! : text;
    const alias = as ? as[2]! : text;
    const call = /^([a-z_]+)\s*\((.*)\)$/is.exec(expr);
    const aggr = call ? AGGR_BY_NAME[call[1]!.toLowerCase()] : undefined;
    if (aggr === undefined) return { alias, expr, aggr: Aggr.NONE };
    const inner = call![2]!.trim();
    // GROUP_CONCAT(x SEPARATOR 's'): the separator travels beside the item (master 34+)
    const sep = aggr === Aggr.CAT ? /^(.*\S)\s+SEPARATOR\s+'((?:[^'\\]|\\.)*)'$/is.exec(inner) : null;
    if (sep) return { alias, expr: sep[1]!, aggr, separator: sep[2]!.replace(/\\(.)/g, '$1') };
    return { alias, expr: inner, aggr };
  });
}

function writeItems(w: ApiWriter, items: ApiItem[]): void {
  w.u32(items.length);
  for (const it of items) {
    w.str(it.alias).str(it.expr).u32(it.aggr);
    if (it.aggr === Aggr.CAT) w.str(it.separator ?? ',');
  }
}

/** One query, master version 35: what a Manticore master sends each agent. */
export function writeManticoreQuery(w: ApiWriter, q: ApiQuery): void {
  writeSearchQuery(w, q, true);
  w.u32(q.expansionLimit ?? 0);
  // master extensions: collation (libc_ci unless given), outer order by, group-by limit, UDF ranker, token filter
  w.u32(q.collation ?? 0).str('').u32(q.groupLimit ?? 1).str('').str('').str('').str('').str('');
  const tree = q.filterTree ?? [];
  w.u32(tree.length);
  for (const n of tree) w.u32(n.left).u32(n.right).u32(n.filter).u32(n.or ? 1 : 0);
  const items = q.items ?? selectItems(q.select);
  writeItems(w, items);
  writeItems(w, items); // reference items
  w.u32(q.expandKeywords ?? 0).u32(0); // expand_keywords (QueryOption_e), no index hints
  w.u32(0).str('').str('').u32(0); // no JOIN
  w.u32(0).u32(0); // no KNN, no hybrid search
  w.u32(0); // jieba mode none
  w.str('').u32(0).u32(0); // no scroll
  w.str(''); // expand_blended
  w.u8(q.queryRole ?? 0).u8(0).u8(0).u32(0).u8(0).u32(0); // role, facet filter trait, own filter attrs
}

/** A SEARCH request body in the Manticore master layout. */
export function manticoreSearchBody(queries: ApiQuery[]): Buffer {
  const w = new ApiWriter().u32(MANTICORE_MASTER_VERSION).u32(queries.length);
  for (const q of queries) writeManticoreQuery(w, q);
  return w.bytes();
}
