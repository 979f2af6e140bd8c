/**
 * Second planning step: keyword statistics over all segments (global IDF), then one plan per
 * segment with terms resolved in that segment's dictionary. A term absent from a segment stays in
 * the plan as NO_TERM: it empties an AND there but still counts as a query word.
 */
import type { Ranker, SearchRequest } from './types.js';
import type { Segment } from './segment/segment.js';
import { NO_TERM, OR_MERGED_LIST, OR_MERGED_TF, PF_DUPES, PF_SINGLE_WORD, RANKER_IDS, type PlanNode } from '../wasm/plan-format.js';
import type { Analyzed, QNode, QTerm } from './query-analyzer.js';
import { expandKeyword, MERGE_EXPANSIONS_ABOVE, type ExpansionSettings } from './wildcard.js';
import { limitTableExpansions, type SegmentExpansions } from './expansion-limit.js';
import { unpackInto } from './segment/bitpack.js';
import { BLOCK_LEN, H, SKIP_WORDS, TERM_INFO_WORDS } from './segment/segment-layout.js';
import { computeIdf } from './idf.js';
import { pairTerm } from './segment/segment-pairs.js';
import { PARAGRAPH_TERM, SENTENCE_TERM, zoneTerm } from './spz-terms.js';

export interface KeywordStats { keyword: string; docs: number; hits: number }

export interface PlannedQuery {
  analyzed: Analyzed;
  /** Per keyword: idf (already divided by the keyword count), docs, hits. */
  idf: number[];
  stats: KeywordStats[];
  flags: number;
  ranker: number;
  /** A wildcard with more expansions than this in a segment becomes one merged list there. */
  mergeAbove: number;
  /** Term numbers per keyword per segment id. */
  termsFor(seg: Segment, kw: number): number[];
  /**
   * Phrases look for pair terms (segment-pairs.ts) to guide them: planned over index segments; not
   * for the highlighter's one-document segments (planned without any), which hold no pairs.
   */
  pairGuides: boolean;
}

/**
 * `a SENTENCE b SENTENCE c`: binary units, left-associative (as Manticore's ExtUnit chain), each
 * with the segment's boundary term as a third child (no idf, no hits of its own).
 */
function unitPlan(kind: 'sentence' | 'paragraph', children: PlanNode[], seg: Segment): PlanNode {
  const t = seg.termId(kind === 'sentence' ? SENTENCE_TERM : PARAGRAPH_TERM);
  const dot: PlanNode = { op: 'term', termId: t < 0 ? NO_TERM : t, qpos: 0, fieldMask: 0xffffffff, maxPos: 0, flags: 0, idf: 0 };
  return children.slice(1).reduce((l, r) => ({ op: kind, children: [l, r, dot] }), children[0]);
}

/** Rows of one postings block, reused across blocks and terms. */
const blockRows = new Uint32Array(BLOCK_LEN);

/**
 * Distinct rows holding any of `terms` in `seg`, and their hits: a wildcard's keyword statistics.
 * Decodes only the row deltas of each block (no positions, no per-term arrays).
 */
function expansionStats(seg: Segment, terms: number[]): { docs: number; hits: number } {
  let hits = 0;
  for (const t of terms) hits += seg.hitCount(t);
  if (terms.length === 1) return { docs: seg.docFreq(terms[0]), hits };
  const u32 = seg.core.u32;
  const base = seg.blobPtr;
  const table = (base + u32[(base >>> 2) + H.termTable]) >>> 2;
  const seen = new Uint8Array(seg.rows);
  let docs = 0;
  for (const t of terms) {
    const info = table + t * TERM_INFO_WORDS;
    const skip = (base + u32[info + 2]) >>> 2;
    let prev = 0;
    for (let b = 0, blocks = u32[info + 3]; b < blocks; b++) {
      const e = skip + b * SKIP_WORDS;
      const count = u32[e + 4];
      if (count > blockRows.length) throw new Error(`postings block of ${count} rows`);
      unpackInto(blockRows, u32, (base + u32[e + 1]) >>> 2, count, u32[e + 5]);
      for (let i = 0; i < count; i++) {
        prev += blockRows[i];
        if (seen[prev] === 0) { seen[prev] = 1; docs++; }
      }
    }
  }
  return { docs, hits };
}

export function planQuery(
  a: Analyzed, segments: Segment[], totalDocs: number, ranker: Ranker, idfOpt: SearchRequest['idf'] = {}, expansion?: ExpansionSettings,
): PlannedQuery {
  const cache = new Map<string, number[]>();
  const limit = expansion?.limit ?? 0;
  const expand = (seg: Segment, text: string): SegmentExpansions =>
    ({ ids: expandKeyword(seg.terms, text, expansion), docs: (t) => seg.docFreq(t), hits: (t) => seg.hitCount(t) });
  const termsFor = (seg: Segment, kw: number): number[] => {
    const key = `${seg.id}:${kw}`;
    let ids = cache.get(key);
    if (!ids) {
      const k = a.keywords[kw];
      if (k.wildcard && limit > 0 && segments.includes(seg)) {
        // expansion_limit weighs the expansions of every segment together (expansion-limit.ts)
        const kept = limitTableExpansions(segments.map((s) => expand(s, k.text)), limit);
        segments.forEach((s, i) => cache.set(`${s.id}:${kw}`, kept[i]!));
        ids = kept[segments.indexOf(seg)]!;
      } else if (k.wildcard) {
        const e = expand(seg, k.text);
        ids = limitTableExpansions([e], limit)[0]!;
      }
      else {
        const t = seg.termId(k.text);
        ids = t < 0 ? [] : [t];
      }
      cache.set(key, ids);
    }
    return ids;
  };
  const stats = a.keywords.map((k, kw) => {
    let docs = 0;
    let hits = 0;
    for (const seg of segments) {
      const ids = termsFor(seg, kw);
      if (!ids.length) continue;
      const s = expansionStats(seg, ids);
      docs += s.docs;
      hits += s.hits;
    }
    return { keyword: k.text, docs, hits };
  });
  // tfidf_unnormalized: the idf is not divided by the keyword count (computeIdf skips 0)
  const words = idfOpt.unnormalized ? 0 : a.keywords.length;
  const idf = stats.map((s) => computeIdf(totalDocs, s.docs, words, idfOpt.plain ?? false));
  const flags = (a.dupes ? PF_DUPES : 0) | (a.singleWord ? PF_SINGLE_WORD : 0);
  const mergeAbove = expansion?.mergeAbove ?? MERGE_EXPANSIONS_ABOVE;
  return { analyzed: a, idf, stats, flags, ranker: RANKER_IDS[ranker], mergeAbove, termsFor, pairGuides: segments.length > 0 };
}

/** `node` guarded by ZONE / ZONESPAN: per zone, its opening and closing tag terms (no idf). */
function zonePlan(node: PlanNode, zones: string[], span: boolean, seg: Segment): PlanNode {
  const tag = (name: string): PlanNode => {
    const t = seg.termId(zoneTerm(name));
    return { op: 'term', termId: t < 0 ? NO_TERM : t, qpos: 0, fieldMask: 0xffffffff, maxPos: 0, flags: 0, idf: 0 };
  };
  return { op: 'zone', arg0: span ? 1 : 0, children: [node, ...zones.flatMap((z) => [tag(z), tag(`/${z}`)])] };
}

/** The plan tree of one segment. */
export function segmentPlan(q: PlannedQuery, seg: Segment, node: QNode = q.analyzed.root): PlanNode {
  if (node.kind === 'term') {
    const plan = termPlan(q, seg, node);
    return node.zones ? zonePlan(plan, node.zones, false, seg) : plan;
  }
  const children = node.children.map((c) => segmentPlan(q, seg, c));
  if (node.kind === 'sentence' || node.kind === 'paragraph') return unitPlan(node.kind, children, seg);
  const plan: PlanNode = { op: node.kind, children, arg0: node.arg0, arg1: node.arg1 };
  if (node.kind === 'phrase' && q.pairGuides) plan.arg2 = phraseGuide(q, seg, node.children);
  if (node.kind === 'and' && q.pairGuides) plan.arg2 = andSteps(q, seg, node.children, children);
  return node.zones ? zonePlan(plan, node.zones, true, seg) : plan;
}

/** Plan arg2's top bit: the guide's pair is the whole phrase (assembly/plan/node.ts N_GUIDE_EXACT). */
const GUIDE_EXACT = 0x80000000;

/**
 * The phrase's guide in this segment (plan arg2: term number + 1, 0 = none): of its adjacent plain
 * words that the segment holds as a pair term (segment-pairs.ts), the pair on the fewest rows;
 * GUIDE_EXACT when the phrase is just those two words (the core still checks their field limits).
 */
function phraseGuide(q: PlannedQuery, seg: Segment, children: QNode[]): number {
  let best = -1;
  let bestRows = 0;
  for (let i = 0; i + 1 < children.length; i++) {
    const a = children[i];
    const b = children[i + 1];
    if (a.kind !== 'term' || b.kind !== 'term' || b.qpos !== a.qpos + 1) continue;
    const ka = q.analyzed.keywords[a.kw];
    const kb = q.analyzed.keywords[b.kw];
    if (ka.wildcard || kb.wildcard) continue;
    const t = seg.termId(pairTerm(ka.text, kb.text));
    if (t < 0) continue;
    const rows = seg.docFreq(t);
    if (best < 0 || rows < bestRows) { best = t; bestRows = rows; }
  }
  if (best < 0) return 0;
  const whole = children.length === 2 && children.every((c) => c.kind === 'term' && !c.zones);
  return ((best + 1) | (whole ? GUIDE_EXACT : 0)) >>> 0;
}

/**
 * An AND of plain words (repeats too): on each child, the segment's pair term of its word and the
 * word at the next query position (TermPlan.pair: term number + 1), where the AND has both. A field's
 * LCS run steps from one of its words to the next query position's only where that pair occurs there,
 * so the core's pruning bounds the rows off those pairs' rows lower (assembly/plan/prune.ts
 * pairedPart). Returns the AND's plan arg2: 1 when a child got a pair, else 0.
 */
function andSteps(q: PlannedQuery, seg: Segment, nodes: QNode[], plans: PlanNode[]): number {
  if (nodes.length < 2) return 0;
  const byQpos = new Map<number, QTerm>();
  for (const c of nodes) {
    if (c.kind !== 'term' || c.zones || q.analyzed.keywords[c.kw].wildcard) return 0;
    byQpos.set(c.qpos, c);
  }
  let any = 0;
  nodes.forEach((c, i) => {
    const a = c as QTerm;
    const b = byQpos.get(a.qpos + 1);
    const plan = plans[i];
    if (!b || plan.op !== 'term') return;
    const t = seg.termId(pairTerm(q.analyzed.keywords[a.kw].text, q.analyzed.keywords[b.kw].text));
    if (t < 0) return;
    plan.pair = t + 1;
    any = 1;
  });
  return any;
}

function termPlan(q: PlannedQuery, seg: Segment, node: QTerm): PlanNode {
  const idf = node.weighted ? q.idf[node.kw] * node.boost : 0;
  const base = {
    op: 'term' as const, qpos: node.qpos, fieldMask: node.fieldMask, maxPos: node.maxPos, flags: node.flags, idf, count: node.count ?? 1,
  };
  const ids = q.termsFor(seg, node.kw);
  if (!q.analyzed.keywords[node.kw].wildcard) return { ...base, termId: ids.length ? ids[0] : NO_TERM };
  if (ids.length === 0) return { ...base, termId: NO_TERM };
  // a wildcard is one keyword: its expansions merge into one tf, and when many, into one list
  const arg0 = ids.length > q.mergeAbove ? OR_MERGED_LIST : OR_MERGED_TF;
  return { op: 'or', arg0, children: ids.map((termId) => ({ ...base, termId })) };
}
