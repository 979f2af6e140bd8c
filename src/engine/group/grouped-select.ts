/**
 * Grouping SELECTs as result sets: GROUP BY (or aggregates) over every match, ORDER BY sorting the
 * groups, SHOW META counting groups. Several statements over the same matches (a SELECT's FACETs) run
 * as one pass over the segments.
 */
import type { SearchRequest } from '../../index/types.js';
import { SearchError } from '../../util/errors.js';
import type { SelectStatement } from '../../sql/ast.js';
import { buildRequest, DEFAULT_LIMIT, DEFAULT_MAX_MATCHES, type GlobalFlags } from '../exec/exec-select.js';
import { rows, type RowsResult, type SearchMeta } from '../result.js';
import type { Session } from '../session.js';
import type { Table } from '../table.js';
import { execGroups, execGroupZeroes } from './exec-group.js';

/**
 * OPTION cutoff=N of a grouping SELECT (a FACET of `... OPTION cutoff=1`): searchd stops matching at the
 * N-th match in row order and groups those N (sphinx.cpp counts each match a sorter took, a grouper's
 * too). Here the first N matches are found as a plain search with that cutoff finds them
 * (search-cutoff.ts), and the grouping then runs over exactly those documents. JSON `aggs` too
 * (json-search.ts): searchd runs them as FACETs of the main query.
 */
export async function firstMatchesOnly(table: Table, req: SearchRequest): Promise<SearchRequest> {
  if (!req.cutoff) return req;
  const n = req.cutoff;
  const first = await table.searchAsync({ ...req, sort: [], offset: 0, limit: n, maxMatches: n });
  const { cutoff: _taken, ...rest } = req;
  return { ...rest, filters: [...req.filters, { attr: 'id', op: 'in', values: first.hits.map((h) => h.docId) }] };
}

/**
 * `sts` share MATCH, WHERE and options (the first one's request serves all); one result each.
 * `zeroesFrom` (one statement, FACET ... ZEROES): its groups missing from the statement's join them
 * with zero counts before ordering and paging.
 */
export async function execGrouped(
  table: Table, sts: SelectStatement[], session: Session, flags: GlobalFlags, started: number, fullText?: SearchRequest['query'] | 'none',
  zeroesFrom?: SelectStatement,
): Promise<RowsResult[]> {
  const parseWarnings: string[] = [];
  const first = sts[0]!;
  const request = (st: SelectStatement): SearchRequest => {
    const req = buildRequest(table, { ...st, orderBy: undefined }, flags, fullText, parseWarnings);
    // a query that can match nothing still answers its groups (none, or the implicit one)
    return req !== 'none' ? req : {
      query: null, ranker: 'none', fieldWeights: {}, filters: [{ attr: 'id', op: 'in', values: [] }], sort: [],
      offset: st.offset ?? 0, limit: st.limit ?? DEFAULT_LIMIT, maxMatches: DEFAULT_MAX_MATCHES,
    };
  };
  const req = await firstMatchesOnly(table, request(first));
  const outs = zeroesFrom
    ? [await execGroupZeroes(table, first, req, await firstMatchesOnly(table, request(zeroesFrom)))]
    : await execGroups(table, sts, req);
  return outs.map((out) => {
    const warning = [parseWarnings.at(-1), out.search.timedOut ? 'query time exceeded max_query_time' : undefined].filter((w): w is string => !!w).at(-1);
    const meta: SearchMeta = {
      total: out.rows.length, totalFound: out.groups, totalRelation: 'eq',
      timeMs: performance.now() - started, keywords: out.search.keywords,
    };
    if (warning) meta.warning = warning;
    session.lastMeta = meta;
    session.lastWarning = warning;
    return rows(out.columns, out.rows, { meta, ...(warning ? { warning } : {}) });
  });
}
