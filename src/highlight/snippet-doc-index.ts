/**
 * The occurrences that satisfy a query in one document, from the search plan evaluator itself: the
 * document's tokens become a one-row segment, the query is planned against it as search plans it,
 * and the core's positionsOut writes the root's hits (Manticore's snippet index + CSphHitMarker).
 */
import type { QueryNode } from '../query/ast.js';
import type { SpzMark } from '../text/spz-marks.js';
import type { Token } from '../text/text-pipeline.js';
import type { FieldTokens } from '../index/types.js';
import { withMarkTerms } from '../index/spz-terms.js';
import { EXACT_HEAD } from '../index/exact-forms.js';
import { positionsOut } from '../wasm/positions-out.js';
import { docSegmentBlob, placeDocSegment } from './snippet-doc-segment.js';
import { docPlanner, type DocPlanner } from './snippet-doc-plan.js';
import { sharedCore, type Core } from '../wasm/core.js';

/** Hit keys: positions stay below 2^24 (Manticore's hitpos layout); fields above. */
export const FIELD_SHIFT = 1 << 24;

export interface DocField {
  /** Field name as the query's @field operators name it. */
  name: string;
  tokens: Token[];
  /** Sentence / paragraph / zone marks (SENTENCE, PARAGRAPH, ZONE read them as the index does). */
  marks?: SpzMark[];
}

export interface DocQuery {
  /** The normalized query (snippetPlanQuery). */
  root: QueryNode;
  /** Index `=word` forms too (the query has exact words or wildcards). */
  exactForms: boolean;
  /** More field names the query names (indexed empty, so @field on them finds nothing). */
  extraFields?: string[];
  /**
   * Only these dictionary terms (and `=forms`) are indexed, plus `=forms` of words a pattern
   * matches: the rest of the document is never looked up (unset: every word).
   */
  terms?: Set<string>;
  patterns?: RegExp[];
  /** Index the sentence / paragraph / zone mark terms (the query has SENTENCE, PARAGRAPH or ZONE). */
  spz?: boolean;
}

/**
 * A reserved term at the field's last hit position: the index marks the field end on the last
 * position of all its terms, so a field indexed with the query's words only keeps its true end.
 */
const FIELD_END_TERM = '\u0001end';

/** One field's index input from its analyzed tokens, as the table indexes it (the query's terms only, when given). */
function fieldTokens(f: DocField, q: DocQuery): FieldTokens {
  const terms: string[] = [];
  const positions: number[] = [];
  const keep = q.terms;
  const patterns = q.patterns ?? [];
  let length = 0;
  const add = (t: Token): void => {
    if (t.pos > length) length = t.pos;
    if (t.term === '') return;
    if (!keep || keep.has(t.term)) { terms.push(t.term); positions.push(t.pos); }
    if (!q.exactForms) return;
    const form = EXACT_HEAD + t.text;
    if (!keep || keep.has(form) || patterns.some((re) => re.test(t.text))) { terms.push(form); positions.push(t.pos); }
  };
  for (const t of f.tokens) {
    add(t);
    // a blended token's other variants and its parts are indexed too (Manticore's HitCollector)
    if (t.inner) for (const x of t.inner) add(x);
  }
  for (const m of f.marks ?? []) if (m.pos > length) length = m.pos;
  if (keep && length > 0) { terms.push(FIELD_END_TERM); positions.push(length); }
  const out: FieldTokens = { terms, positions, length };
  return q.spz === false ? out : withMarkTerms(out, f.marks);
}

/**
 * Raw hits of `q` in the document: pairs (hitpos = field << 24 | pos, span), nothing when the
 * document does not satisfy the whole query. Field numbers are indices into `fields`.
 */
export function documentHits(q: DocQuery, fields: DocField[], core: Core = sharedCore()): Uint32Array {
  const names = fields.map((f) => f.name);
  const lower = new Set(names.map((n) => n.toLowerCase()));
  for (const n of q.extraFields ?? []) {
    if (!lower.has(n.toLowerCase())) { names.push(n); lower.add(n.toLowerCase()); }
  }
  const inputs = names.map((_, i) => (i < fields.length ? fieldTokens(fields[i], q) : { terms: [], positions: [], length: 0 }));
  const blob = docSegmentBlob(inputs);
  const desc = placeDocSegment(core, blob);
  return positionsOut(core, desc, plannerFor(q.root, names).plan(blob.terms), 0);
}

const planners = new WeakMap<QueryNode, Map<string, DocPlanner>>();

/** The query's planner for this field list (one per query and list: a page's documents share it). */
function plannerFor(root: QueryNode, names: string[]): DocPlanner {
  let byNames = planners.get(root);
  if (!byNames) { byNames = new Map(); planners.set(root, byNames); }
  const key = names.join('\u0000');
  let p = byNames.get(key);
  if (!p) {
    if (byNames.size > 16) byNames.clear();
    p = docPlanner(root, names);
    byNames.set(key, p);
  }
  return p;
}

/**
 * Sorted hit keys (field * FIELD_SHIFT + pos) of the words to mark: a span's positions that are
 * keyword occurrences (Manticore's SplitSpans: `a NEAR/3 b` spans the words between, only the
 * keywords are marked; `isKeyword(field, pos)`), single-word hits as they are.
 */
export function hitKeys(hits: Uint32Array, isKeyword: (field: number, pos: number) => boolean): number[] {
  const keys = new Set<number>();
  for (let i = 0; i < hits.length; i += 2) {
    const field = hits[i] >>> 24;
    const pos = hits[i] & (FIELD_SHIFT - 1);
    const span = hits[i + 1];
    if (span <= 1) { keys.add(field * FIELD_SHIFT + pos); continue; }
    for (let p = pos; p < pos + span; p++) if (isKeyword(field, p)) keys.add(field * FIELD_SHIFT + p);
  }
  return [...keys].sort((a, b) => a - b);
}
