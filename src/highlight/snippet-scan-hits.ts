/**
 * The scan path's query matching (snippet-scan-path.ts streams the fields): which keyword
 * occurrences a document's query matches, from the occurrences the core found, as (field, pos,
 * span) triples and then sorted hit keys. Split from snippet-scan-path.ts.
 */
import type { PhraseNode, QueryNode } from '../query/ast.js';
import { STREAM_OCC_WORDS } from '../text/field-scanner.js';
import { FIELD_SHIFT } from './snippet-doc-index.js';
import { fieldTest } from './snippet-field-limits.js';
import type { ScanPlan } from './snippet-scan-plan.js';

/** A field's keyword occurrences: | piece | pos | keyword | triples. */
export interface FieldOcc { occ: Int32Array; n: number }

/** Hits of a node as (field, pos, span) triples, or null when the document does not satisfy it. */
export function evaluate(n: QueryNode, plan: ScanPlan, occ: FieldOcc[], names: string[]): number[] | null {
  switch (n.kind) {
    case 'term': {
      const k = plan.keywords.get(n.text)!;
      const ok = fieldTest(n.field, names);
      const max = n.field?.maxPos ?? 0;
      const out: number[] = [];
      for (let f = 0; f < occ.length; f++) {
        if (!ok(f)) continue;
        const o = occ[f];
        for (let i = 0; i < o.n; i++) {
          const at = i * STREAM_OCC_WORDS;
          if (o.occ[at + 2] === k && (!max || o.occ[at + 1] <= max)) out.push(f, o.occ[at + 1], 1);
        }
      }
      return out.length ? out : null;
    }
    case 'phrase': return phraseHits(n, plan, occ, names);
    case 'and': {
      const out: number[] = [];
      for (const c of n.children) {
        const h = evaluate(c.kind === 'not' ? c.child : c, plan, occ, names);
        if ((h === null) !== (c.kind === 'not')) return null;
        if (h && c.kind !== 'not') out.push(...h);
      }
      return out;
    }
    case 'or': {
      let out: number[] | null = null;
      for (const c of n.children) {
        const h = evaluate(c, plan, occ, names);
        if (h) (out ??= []).push(...h);
      }
      return out;
    }
    default: return null;
  }
}

/** `"a b c"`: each start where every term stands at its offset in the same field; span to the last one. */
function phraseHits(n: PhraseNode, plan: ScanPlan, occ: FieldOcc[], names: string[]): number[] | null {
  const ks = n.terms.map((t) => plan.keywords.get(t.text)!);
  const offs = n.offsets;
  const span = offs[offs.length - 1] + 1;
  const ok = fieldTest(n.field, names);
  const out: number[] = [];
  occ.forEach((o, f) => {
    if (!ok(f)) return;
    const at = new Map<number, number>();
    for (let i = 0; i < o.n; i++) {
      const pos = o.occ[i * STREAM_OCC_WORDS + 1];
      at.set(pos, (at.get(pos) ?? 0) | (1 << o.occ[i * STREAM_OCC_WORDS + 2]));
    }
    for (let i = 0; i < o.n; i++) {
      if (o.occ[i * STREAM_OCC_WORDS + 2] !== ks[0]) continue;
      const pos = o.occ[i * STREAM_OCC_WORDS + 1];
      let all = true;
      for (let j = 1; j < ks.length && all; j++) all = ((at.get(pos + offs[j]) ?? 0) & (1 << ks[j])) !== 0;
      if (all) out.push(f, pos, span);
    }
  });
  return out.length ? out : null;
}

/** Sorted hit keys (field * FIELD_SHIFT + pos): a span's keyword positions, single hits as they are. */
export function hitKeys(triples: number[], occ: FieldOcc[]): number[] {
  const keys: number[] = [];
  let isKw: Set<number>[] | null = null;
  for (let i = 0; i < triples.length; i += 3) {
    const f = triples[i];
    const pos = triples[i + 1];
    const span = triples[i + 2];
    if (span <= 1) { keys.push(f * FIELD_SHIFT + pos); continue; }
    isKw ??= occ.map((o) => {
      const s = new Set<number>();
      for (let j = 0; j < o.n; j++) s.add(o.occ[j * STREAM_OCC_WORDS + 1]);
      return s;
    });
    for (let p = pos; p < pos + span; p++) if (isKw[f].has(p)) keys.push(f * FIELD_SHIFT + p);
  }
  // one term's hits come in order already (a document's hits were a Set, spread and sorted: per document)
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] < keys[i];
  if (sorted) return keys;
  keys.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < keys.length; i++) if (!n || keys[i] !== keys[n - 1]) keys[n++] = keys[i];
  keys.length = n;
  return keys;
}
