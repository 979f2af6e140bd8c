/** The expression ranker's plan section: the compiled formula plus per-query-position idf. */
import type { PlanExpr } from '../../wasm/plan-format.js';
import type { PlannedQuery } from '../planner.js';
import type { QNode } from '../query-analyzer.js';
import type { IndexSchema } from '../types.js';
import type { Segment } from '../segment/segment.js';
import { compileRankExpr, X } from './rank-expr-compile.js';
import { fbits } from './rank-expr-words.js';

/** The table a formula runs over: attributes and fields by name, and (bm25a/bm25f) the field lengths. */
export interface RankExprTable {
  schema: IndexSchema;
  segments: readonly Segment[];
  /** Documents in the table (Manticore's m_iTotalDocs). */
  totalDocs: number;
}

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

/**
 * The `<field>_len` attribute of each field (index_field_lengths=1 adds them, as Manticore's
 * token-count attributes), or null when some field has none.
 */
export function fieldLengthAttrs(schema: IndexSchema): number[] | null {
  const at = schema.fields.map((f) => schema.attrs.findIndex((a) => a.type === 'uint' && a.name.toLowerCase() === `${f.toLowerCase()}_len`));
  return schema.fields.length > 0 && at.every((i) => i >= 0) ? at : null;
}

/** Every row's field lengths summed per field over the segments (Manticore's m_dFieldLens). */
export function tableFieldLengths(segments: readonly Segment[], attrs: number[]): number[] {
  return attrs.map((a) => {
    let total = 0;
    for (const seg of segments) for (let r = 0; r < seg.rows; r++) total += Number(seg.attr(a, r) ?? 0);
    return total;
  });
}

/**
 * The header's length words: a flag, the average document length (Σ field totals / documents in
 * float32), per field the integer average (Manticore divides int64 by int64 there), then per
 * field the core column of its length (attribute + 1).
 */
function lengthWords(table: RankExprTable | undefined): number[] {
  const attrs = table ? fieldLengthAttrs(table.schema) : null;
  if (!table || !attrs || table.totalDocs <= 0) return [0, 0];
  const totals = tableFieldLengths(table.segments, attrs);
  let avg = 0;
  for (const t of totals) avg = Math.fround(avg + Math.fround(t));
  avg = Math.fround(avg / Math.fround(table.totalDocs));
  return [1, fbits(avg), ...totals.map((t) => fbits(Math.trunc(t / table.totalDocs))), ...attrs.map((a) => a + 1)];
}

export function planExprSection(src: string, planned: PlannedQuery, table?: RankExprTable): PlanExpr {
  const { code: body, float, window, uses } = compileRankExpr(src, table?.schema);
  const qposIdf = new Array<number>(planned.analyzed.maxQpos + 1).fill(0);
  const first = new Map<number, number>();
  const qposKw = new Map<number, number>();
  collect(planned.analyzed.root, planned, qposIdf, first, qposKw);
  const qposAtom = qposIdf.map((_, q) => (qposKw.has(q) ? first.get(qposKw.get(q)!)! : q));
  // the distinct keywords' first positions (Manticore's dQueryPos): lccs chains, min_gaps/atc word
  // counts, and the positions bm25a/bm25f do not skip
  let kwMask = 0;
  for (const q of first.values()) if (q < 32) kwMask = (kwMask | (1 << q)) >>> 0;
  const lens = lengthWords(table);
  const header = [X.PARAMS, 5 + lens.length, window >>> 0, uses, kwMask, ...lens];
  return { code: [...header, ...body], float, queryWordCount: first.size, qposIdf, qposAtom };
}
