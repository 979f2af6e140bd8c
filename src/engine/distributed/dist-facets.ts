/**
 * FACET over a distributed table: each facet is its own grouped SELECT over the shards (the same
 * statement a local table's facet runs, facets.ts), merged as any grouped query. A max-mode facet's
 * strict helper (the facet under all the main query's filters) runs beside it, so its statuses tell
 * available from unavailable buckets as over one table; ZEROES is refused by name (its zero-count
 * buckets would have to join the merged groups before their page is taken).
 */
import type { SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import type { GlobalFlags } from '../exec/exec-select.js';
import { facetStatement, facetStatus, maxHelpers } from '../group/facets.js';
import type { RowsResult } from '../result.js';
import { newSession } from '../session.js';
import type { DistributedDef } from './dist-def.js';
import { execDistributedSelect } from './dist-select.js';

export async function execDistributedFacets(catalog: Catalog, def: DistributedDef, st: SelectStatement, flags: GlobalFlags): Promise<RowsResult[]> {
  return Promise.all(st.facets!.map(async (f) => {
    const fst = facetStatement(st, f);
    const helpers = maxHelpers(st, f, fst);
    if (helpers.broad) throw new SearchError('UNSUPPORTED', `FACET ${f.items[0]!.expr.text} ZEROES over a distributed table is not supported`);
    const run = (s: SelectStatement) => execDistributedSelect(catalog, def, s, newSession(), flags, false);
    const [r, strict] = await Promise.all([run(fst), helpers.strict ? run(helpers.strict) : undefined]);
    const status = facetStatus(st, f, strict && new Set(strict.rows.map((row) => String(row[0] ?? null))));
    const named = { ...r, facet: f.items[0]!.expr.text };
    if (!status) return named;
    return { ...named, columns: [...r.columns, { name: 'status', kind: 'string' as const }], rows: r.rows.map((row) => [...row, status(row[0] ?? null)]) };
  }));
}
