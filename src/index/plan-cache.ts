/**
 * Planned queries kept per query tree: a query repeated over the same segments skips planning (the
 * keyword statistics over every segment, the per-segment term lookups and plan trees, their encoding),
 * which was about a quarter of a cached-parse `/search` request's CPU on the protocol thread. The parse
 * caches (engine/parse-cache.ts) hand a repeated MATCH text or `/search` query the same deep-frozen
 * tree, which keys the entry; a tree that is not frozen may still change, so it is planned each time,
 * and so is a query with a wildcard (its expansions per segment can be many thousand terms).
 */
import type { Segment } from './segment/segment.js';
import type { QueryNode } from '../query/ast.js';
import type { SearchRequest } from './types.js';
import { encodePlanTree } from '../wasm/plan-encoder.js';
import { analyzeQuery } from './query-analyzer.js';
import { planQuery, segmentPlan, type PlannedQuery } from './planner.js';
import { deepFreeze } from '../util/deep-freeze.js';

/**
 * What a plan was computed from besides the tree. Segments are immutable and numbered once per
 * process, so their ids stand for them (an entry holds no segment, which a merge may retire); the
 * live-document count changes the IDF, the request's ranker, idf and expansion settings the rest.
 */
interface PlanInputs {
  fields: readonly string[];
  segmentIds: number[];
  totalDocs: number;
  ranker: SearchRequest['ranker'];
  idfPlain: boolean;
  idfUnnormalized: boolean;
  expansion: string;
}

interface Entry extends PlanInputs {
  planned: PlannedQuery;
  /** Each segment's plan tree as the words encodePlan writes for it, by segment id. */
  trees: Map<number, Uint32Array>;
}

const plans = new WeakMap<QueryNode, Entry>();

/**
 * A segment's tree kept up to this many words (a term is 10): a wildcard's expansions can make
 * trees of many thousand terms, planned each time rather than held for as long as the parse is.
 */
const MAX_KEPT_TREE_WORDS = 4096;

function expansionKey(req: SearchRequest): string {
  const e = req.expansion;
  return e ? `${e.minPrefixLen} ${e.minInfixLen} ${e.exactForms ? 1 : 0} ${e.mergeAbove ?? ''} ${e.limit ?? ''}` : '';
}

function inputsOf(fields: readonly string[], segments: readonly Segment[], totalDocs: number, req: SearchRequest): PlanInputs {
  return {
    fields, segmentIds: segments.map((s) => s.id), totalDocs, ranker: req.ranker,
    idfPlain: req.idf?.plain ?? false, idfUnnormalized: req.idf?.unnormalized ?? false, expansion: expansionKey(req),
  };
}

function sameInputs(a: PlanInputs, b: PlanInputs): boolean {
  if (a.fields !== b.fields || a.totalDocs !== b.totalDocs || a.ranker !== b.ranker || a.idfPlain !== b.idfPlain
    || a.idfUnnormalized !== b.idfUnnormalized || a.expansion !== b.expansion || a.segmentIds.length !== b.segmentIds.length) return false;
  for (let i = 0; i < a.segmentIds.length; i++) if (a.segmentIds[i] !== b.segmentIds[i]) return false;
  return true;
}

/** A query's plan over `segments`: the global statistics and, per segment, its encoded plan tree. */
export interface QueryPlan {
  planned: PlannedQuery;
  treeWords(seg: Segment): Uint32Array;
}

function fresh(query: QueryNode, fields: readonly string[], segments: readonly Segment[], totalDocs: number, req: SearchRequest): Entry {
  const planned = planQuery(analyzeQuery(query, fields as string[]), segments as Segment[], totalDocs, req.ranker, req.idf, req.expansion);
  return { ...inputsOf(fields, segments, totalDocs, req), planned, trees: new Map() };
}

/**
 * The plan of `query` (a non-empty tree) over `segments`, kept for the next request with the same
 * frozen tree and inputs. The kept PlannedQuery is frozen: whoever reads it (SHOW META's keywords,
 * the expression ranker) shares it with later requests.
 */
export function queryPlan(query: QueryNode, fields: readonly string[], segments: readonly Segment[], totalDocs: number, req: SearchRequest): QueryPlan {
  let entry: Entry;
  if (!Object.isFrozen(query)) {
    entry = fresh(query, fields, segments, totalDocs, req);
  } else {
    const kept = plans.get(query);
    if (kept && sameInputs(kept, inputsOf(fields, segments, totalDocs, req))) {
      entry = kept;
    } else {
      entry = fresh(query, fields, segments, totalDocs, req);
      // a wildcard's expansion lists (planned.termsFor's, per segment) can be long: not kept either
      if (!entry.planned.analyzed.keywords.some((k) => k.wildcard)) {
        deepFreeze(entry.planned.stats);
        deepFreeze(entry.planned.idf);
        deepFreeze(entry.planned.analyzed);
        plans.set(query, entry);
      }
    }
  }
  return {
    planned: entry.planned,
    treeWords: (seg) => {
      let words = entry.trees.get(seg.id);
      if (words) return words;
      words = encodePlanTree(segmentPlan(entry.planned, seg));
      if (words.length <= MAX_KEPT_TREE_WORDS) entry.trees.set(seg.id, words);
      return words;
    },
  };
}
