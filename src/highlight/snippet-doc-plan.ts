/**
 * Plans of a highlight query against one-row document segments, by the search planner. A query
 * without wildcards plans to the same words for every document but its term numbers, so it is
 * planned once per field list and only the TERM nodes' term numbers are filled in per document;
 * wildcards expand over each document's dictionary, so such a query is planned per document.
 */
import type { QueryNode } from '../query/ast.js';
import type { Segment } from '../index/segment/segment.js';
import { analyzeQuery, type Analyzed } from '../index/query-analyzer.js';
import { planQuery, segmentPlan } from '../index/planner.js';
import { encodePlan } from '../wasm/plan-encoder.js';
import { INNER_WORDS, NO_TERM, OPS, TERM_WORDS, type PlanNode } from '../wasm/plan-format.js';

/** Word of the plan header holding the root's offset (plan-format: rootOff). */
const P_ROOT = 5;

export interface DocPlanner {
  /** The encoded plan for a document segment whose sorted dictionary is `terms`. */
  plan(terms: string[]): Uint32Array;
}

/** What segmentPlan reads of a segment: its id (a cache key), dictionary and term lookup. */
type PlanSegment = Pick<Segment, 'id' | 'terms' | 'termId'>;

let nextId = -1;

function encode(a: Analyzed, root: PlanNode): Uint32Array {
  return encodePlan({
    ranker: 0, flags: 0, weights: [], root, filters: [], sort: [], allowPtr: 0, maxQpos: a.maxQpos, numKeywords: a.keywords.length,
  });
}

/** Binary search in a sorted dictionary. */
function lookup(terms: string[], t: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid] === t) return mid;
    if (terms[mid] < t) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

/** Word offsets of the TERM nodes' term numbers in an encoded plan, in pre-order. */
function termWords(plan: Uint32Array): number[] {
  const out: number[] = [];
  const walk = (at: number): void => {
    if (plan[at] === OPS.term) { out.push(at + 2); return; }
    let c = at + INNER_WORDS;
    for (let i = 0; i < plan[at + 2]; i++) { walk(c); c += plan[c + 1]; }
  };
  if (plan[P_ROOT]) walk(plan[P_ROOT]);
  if (TERM_WORDS !== 10) throw new Error('plan format mismatch');
  return out;
}

/** A planner for `root` (normalized) over segments with fields `names`. */
export function docPlanner(root: QueryNode, names: string[]): DocPlanner {
  const a = analyzeQuery(root, names);
  if (a.keywords.some((k) => k.wildcard)) {
    return {
      plan(terms) {
        const seg: PlanSegment = { id: nextId--, terms, termId: (t: string) => lookup(terms, t) };
        const planned = planQuery(a, [], 1, 'none');
        return encode(a, segmentPlan(planned, seg as Segment));
      },
    };
  }
  // every term the plan looks up gets a slot; the template holds slot numbers in its TERM nodes
  const slots: string[] = [];
  const slotIndex = new Map<string, number>();
  const slotOf = (t: string): number => {
    let i = slotIndex.get(t);
    if (i === undefined) { i = slots.push(t) - 1; slotIndex.set(t, i); }
    return i;
  };
  const seg: PlanSegment = { id: nextId--, terms: [], termId: slotOf };
  const template = encode(a, segmentPlan(planQuery(a, [], 1, 'none'), seg as Segment));
  const at = termWords(template);
  const slot = at.map((w) => template[w]);
  return {
    plan(terms) {
      const out = template.slice();
      // each distinct term looked up once (a long query repeats its words)
      const ids = new Int32Array(slots.length).fill(-2);
      for (let i = 0; i < at.length; i++) {
        let id = -1;
        if (slot[i] !== NO_TERM) {
          if (ids[slot[i]] === -2) ids[slot[i]] = lookup(terms, slots[slot[i]]);
          id = ids[slot[i]];
        }
        out[at[i]] = id < 0 ? NO_TERM : id;
      }
      return out;
    },
  };
}
