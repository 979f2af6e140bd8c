/**
 * FACET over a distributed table: each facet is its own grouped SELECT over the shards (the same
 * statement a local table's facet runs, facets.ts), merged as any grouped query.
 */
import type { SelectStatement } from '../../sql/ast.js';
import type { Catalog } from '../catalog.js';
import type { GlobalFlags } from '../exec/exec-select.js';
import { facetStatement, facetStatus } from '../group/facets.js';
import type { RowsResult } from '../result.js';
import { newSession } from '../session.js';
import type { DistributedDef } from './dist-def.js';
import { execDistributedSelect } from './dist-select.js';

export async function execDistributedFacets(catalog: Catalog, def: DistributedDef, st: SelectStatement, flags: GlobalFlags): Promise<RowsResult[]> {
  return Promise.all(st.facets!.map(async (f) => {
    const r = await execDistributedSelect(catalog, def, facetStatement(st, f), newSession(), flags, false);
    const status = facetStatus(st, f);
    const named = { ...r, facet: f.items[0]!.expr.text };
    if (!status) return named;
    return { ...named, columns: [...r.columns, { name: 'status', kind: 'string' as const }], rows: r.rows.map((row) => [...row, status(row[0] ?? null)]) };
  }));
}
