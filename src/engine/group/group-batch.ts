/**
 * Groupings over a few requests, one pass per request: the plans added against the same request
 * share its matches in one collectGroupsManyAsync (the core fold, on the query worker threads when the
 * table is big enough), as a SELECT and its FACETs do. `/search` `aggs` collect their groupings here.
 */
import type { SearchRequest, SearchResult } from '../../index/types.js';
import type { Table } from '../table.js';
import { collectGroupsManyAsync } from './exec-group.js';
import type { GroupPlan } from './group-plan.js';
import type { GroupRow } from './group-order.js';

export interface Grouped { groups: GroupRow[]; search: SearchResult }

interface Pass { req: SearchRequest; plans: GroupPlan[]; out?: { groups: GroupRow[][]; search: SearchResult } }

export class GroupBatch {
  readonly #passes = new Map<SearchRequest, Pass>();

  constructor(private readonly table: Table) {}

  /** Registers `plan` over `req`; the returned function reads its groups once run() has resolved. */
  add(req: SearchRequest, plan: GroupPlan): () => Grouped {
    let pass = this.#passes.get(req);
    if (!pass) this.#passes.set(req, (pass = { req, plans: [] }));
    const i = pass.plans.push(plan) - 1;
    const p = pass;
    return () => {
      if (!p.out) throw new Error('GroupBatch: groups read before run()');
      return { groups: p.out.groups[i]!, search: p.out.search };
    };
  }

  /** One pass per request, in the order they were first added. */
  async run(): Promise<void> {
    for (const pass of this.#passes.values()) pass.out = await collectGroupsManyAsync(this.table, pass.req, pass.plans);
  }
}
