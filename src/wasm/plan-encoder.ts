/** Encodes a PlanSpec into the u32 words the core's evaluate() reads (see plan-format.ts). */
import {
  FILTER_HEADER_WORDS, FILTER_OPS, INNER_WORDS, OPS, PF_EXHAUSTIVE, PLAN_HEADER_WORDS, PLAN_MAGIC, TERM_WORDS,
  type PlanFilter, type PlanNode, type PlanSpec,
} from './plan-format.js';

const f32 = new Float32Array(1);
const f32bits = new Uint32Array(f32.buffer);
const i64 = new BigInt64Array(1);
const f64 = new Float64Array(i64.buffer);
const words64 = new Uint32Array(i64.buffer);

function nodeWords(n: PlanNode, out: number[]): void {
  if (n.op === 'term') {
    f32[0] = n.idf;
    out.push(OPS.term, TERM_WORDS, n.termId >>> 0, n.qpos, n.fieldMask >>> 0, n.maxPos, n.flags, f32bits[0], n.count ?? 1, n.pair ?? 0);
    return;
  }
  const at = out.length;
  out.push(OPS[n.op], 0, n.children.length, (n.arg0 ?? 0) >>> 0, (n.arg1 ?? 0) >>> 0, (n.arg2 ?? 0) >>> 0);
  for (const c of n.children) nodeWords(c, out);
  out[at + 1] = out.length - at;
  if (INNER_WORDS !== 6) throw new Error('plan format mismatch');
}

function push64(out: number[], v: number | bigint, float: boolean): void {
  if (float) f64[0] = Number(v);
  else i64[0] = typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  out.push(words64[0], words64[1]);
}

function filterWords(f: PlanFilter, out: number[]): void {
  out.push(f.column, FILTER_OPS[f.op], f.negate ? 1 : 0, f.values.length, 0, 0);
  for (const v of f.values) push64(out, v, f.float);
  if (FILTER_HEADER_WORDS !== 6) throw new Error('plan format mismatch');
}

/**
 * Tests only: plans ask the core to evaluate every row in full (no weight-bound pruning, phrases by
 * their FSM), the oracle the pruned evaluation is compared with.
 */
let exhaustive = false;
export function setExhaustiveEvaluation(on: boolean): void {
  exhaustive = on;
}

/** A plan tree's words as encodePlan writes them (kept per query and segment by index/plan-cache.ts). */
export function encodePlanTree(root: PlanNode): Uint32Array {
  const out: number[] = [];
  nodeWords(root, out);
  return new Uint32Array(out); // not Uint32Array.from: its iterator protocol cost 40% of this function
}

/**
 * The plan's words: header and weights, the root's words (kept per segment by index/plan-cache.ts,
 * copied in whole with TypedArray#set rather than a word at a time through a JS array), then the
 * filters, sort and expression sections, whose offsets count the root's words before them.
 */
export function encodePlan(spec: PlanSpec): Uint32Array {
  const head: number[] = new Array(PLAN_HEADER_WORDS).fill(0);
  head[0] = PLAN_MAGIC;
  head[1] = spec.ranker;
  head[2] = spec.flags | (exhaustive ? PF_EXHAUSTIVE : 0);
  head[3] = spec.weights.length;
  head[4] = head.length;
  for (const w of spec.weights) head.push(w >>> 0);
  const root = spec.rootWords ?? (spec.root ? encodePlanTree(spec.root) : null);
  if (root) head[5] = head.length;
  const base = head.length + (root?.length ?? 0);
  const out: number[] = []; // the words after the root; a section's offset is base + out.length
  head[6] = base;
  head[7] = spec.filters.length;
  for (const f of spec.filters) filterWords(f, out);
  head[8] = base + out.length;
  head[9] = spec.sort.length;
  for (const k of spec.sort) out.push(k.kind, k.ref >>> 0, k.desc ? 1 : 0);
  head[10] = spec.allowPtr >>> 0;
  head[11] = spec.maxQpos;
  head[12] = spec.numKeywords ?? 0;
  head[16] = (spec.floorPtr ?? 0) >>> 0;
  if (spec.expr) {
    head[13] = base + out.length;
    head[14] = spec.expr.code.length;
    head[15] = spec.expr.float ? 1 : 0;
    out.push(spec.expr.queryWordCount, spec.expr.qposIdf.length);
    for (const v of spec.expr.qposIdf) {
      f32[0] = v;
      out.push(f32bits[0]);
    }
    for (const a of spec.expr.qposAtom) out.push(a);
    for (const w of spec.expr.code) out.push(w >>> 0);
  }
  const words = new Uint32Array(base + out.length);
  words.set(head);
  if (root) words.set(root, head.length);
  words.set(out, base);
  return words;
}
