/** The expression ranker's plan section: the compiled formula plus per-query-position idf. */
import type { PlanExpr } from '../wasm/plan-format.js';
import type { PlannedQuery } from './planner.js';
import type { QNode } from './query-analyzer.js';
import { compileRankExpr, X } from './rank-expr-compile.js';

/**
 * Terms a row can match, as Manticore's qword hash without the excluded words (the right side
 * of AND-NOT): they give query_word_count and the idf of each query position.
 */
function collect(n: QNode, planned: PlannedQuery, idf: number[], first: Map<number, number>, qposKw: Map<number, number>): void {
  if (n.kind === 'term') {
    idf[n.qpos] = planned.idf[n.kw];
    first.set(n.kw, Math.min(first.get(n.kw) ?? n.qpos, n.qpos));
    qposKw.set(n.qpos, n.kw);
    return;
  }
  const kids = n.kind === 'andnot' ? n.children.slice(0, 1) : n.children;
  for (const c of kids) collect(c, planned, idf, first, qposKw);
}

export function planExprSection(src: string, planned: PlannedQuery): PlanExpr {
  const { code: body, float, window, uses } = compileRankExpr(src);
  const qposIdf = new Array<number>(planned.analyzed.maxQpos + 1).fill(0);
  const first = new Map<number, number>();
  const qposKw = new Map<number, number>();
  collect(planned.analyzed.root, planned, qposIdf, first, qposKw);
  const qposAtom = qposIdf.map((_, q) => (qposKw.has(q) ? first.get(qposKw.get(q)!)! : q));
  // the distinct keywords' first positions (Manticore's dQueryPos): lccs chains, min_gaps/atc word counts
  let kwMask = 0;
  for (const q of first.values()) if (q < 32) kwMask = (kwMask | (1 << q)) >>> 0;
  const code = [X.PARAMS, window >>> 0, uses, kwMask, ...body];
  return { code, float, queryWordCount: first.size, qposIdf, qposAtom };
}
