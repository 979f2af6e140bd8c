// Runs ranker=expr over an RtIndex's segments as searchSegments does, but with the table context
// (attributes, field lengths) handed to planExprSection.
import type { RtIndex } from '../../../../src/index/rt-index.js';
import type { QueryNode } from '../../../../src/query/ast.js';
import { analyzeQuery } from '../../../../src/index/query-analyzer.js';
import { planQuery, segmentPlan } from '../../../../src/index/planner.js';
import { planExprSection } from '../../../../src/index/rank-expr/rank-expr-plan.js';
import { encodePlan } from '../../../../src/wasm/plan-encoder.js';
import { runPlan } from '../../../../src/wasm/segment-runner.js';

/** Weights by document id, as searchSegments computes them, with the table passed to the formula. */
export function tableWeights(idx: RtIndex, q: QueryNode, expr: string): Map<number, number> {
  const segs = [...idx.segments];
  const planned = planQuery(analyzeQuery(q, idx.schema.fields), segs, idx.count(), 'expr');
  const section = planExprSection(expr, planned, { schema: idx.schema, segments: segs, totalDocs: idx.count() });
  const out = new Map<number, number>();
  for (const seg of segs) {
    const plan = encodePlan({
      ranker: planned.ranker, flags: planned.flags, weights: idx.schema.fields.map(() => 1), root: segmentPlan(planned, seg),
      filters: [], sort: [], allowPtr: 0, maxQpos: planned.analyzed.maxQpos, numKeywords: planned.analyzed.keywords.length, expr: section,
    });
    const top = runPlan(seg.core, seg.descPtr, plan, 100);
    top.rowIds.forEach((r, i) => out.set(Number(seg.docId(r)), top.weights[i]));
  }
  return out;
}
