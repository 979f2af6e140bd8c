/** The snippet matcher's span helpers: SENTENCE / PARAGRAPH units and ZONE spans from the marks, and NOTNEAR. */
import type { QueryNode } from '../query/ast.js';
import type { SpzMark } from '../text/spz-marks.js';
import type { Token } from '../text/text-pipeline.js';

/** Positions stay below this (Manticore's 24-bit hitpos); a range's open end. */
const POS_LIMIT = 1 << 24;
/** Hit keys carry the field above the position (same layout as snippet-match's FIELD_SHIFT). */
const FIELD_SHIFT = 1 << 24;

/** Positions strictly between lo and hi in one field. */
export interface Range { field: number; lo: number; hi: number }

interface SpanField { tokens: Token[]; marks?: SpzMark[] }

interface Res { ok: boolean; hits: number[] }

/** Each field cut at its boundary marks: a paragraph ends a sentence too (Manticore's BuildZoneHits). */
export function unitRanges(fields: SpanField[], kind: 'sentence' | 'paragraph'): Range[] {
  const out: Range[] = [];
  fields.forEach((f, field) => {
    let lo = 0;
    for (const m of f.marks ?? []) {
      if (m.kind === 'paragraph' || (kind === 'sentence' && m.kind === 'sentence')) {
        out.push({ field, lo, hi: m.pos });
        lo = m.pos;
      }
    }
    out.push({ field, lo, hi: POS_LIMIT });
  });
  return out;
}

/** Spans of the listed zones: an opening tag paired with the next closing tag of its name (open to the field end). */
export function zoneRanges(fields: SpanField[], zones: string[]): Range[] {
  const names = new Set(zones.map((z) => z.toLowerCase()));
  const out: Range[] = [];
  fields.forEach((f, field) => {
    const marks = (f.marks ?? []).filter((m) => m.kind === 'zone');
    marks.forEach((m, i) => {
      if (!names.has(m.zone)) return;
      const close = marks.slice(i + 1).find((c) => c.zone === `/${m.zone}`);
      out.push({ field, lo: m.pos, hi: close ? close.pos : POS_LIMIT });
    });
  });
  return out;
}

/**
 * NOTNEAR/N folded left: a left hit survives unless a right hit of its field lies within N words
 * (the reference evaluator's rule); a right side that does not match removes nothing.
 */
export function notNear(parts: (Res | null)[], distance: number): Res {
  const [first, ...rest] = parts;
  if (!first || !first.ok) return { ok: false, hits: [] };
  let hits = first.hits;
  for (const r of rest) {
    if (!r || !r.ok) continue;
    hits = hits.filter((m) => !r.hits.some((h) => Math.floor(h / FIELD_SHIFT) === Math.floor(m / FIELD_SHIFT) && Math.abs(h - m) <= distance));
  }
  return { ok: hits.length > 0, hits };
}

/**
 * NEAR/N: runs of operand hits in one field where each hit lies within N words of the previous one
 * (Manticore's ExtNear chains hit to hit, so three operands may span more than N); marks the
 * shortest runs holding every operand, starting at the last occurrence of their first operand.
 */
export function near(parts: (Res | null)[], distance: number): Res {
  const rs = parts.filter((r): r is Res => r !== null);
  if (!rs.length || rs.some((r) => !r.ok)) return { ok: false, hits: [] };
  const all = rs.flatMap((r, i) => r.hits.map((h) => ({ h, i }))).sort((a, b) => a.h - b.h || a.i - b.i);
  const field = (h: number): number => Math.floor(h / FIELD_SHIFT);
  const out = new Set<number>();
  for (let s = 0; s < all.length; s++) {
    const seen = new Set<number>([all[s].i]);
    for (let e = s + 1; e < all.length && field(all[e].h) === field(all[s].h) && all[e].h - all[e - 1].h <= distance; e++) {
      // a later hit of the start's operand makes a shorter run from there
      if (all[e].i === all[s].i && seen.size < rs.length) break;
      seen.add(all[e].i);
      if (seen.size === rs.length) {
        for (let k = s; k <= e; k++) out.add(all[k].h);
        break;
      }
    }
    if (rs.length === 1) out.add(all[s].h);
  }
  const hits = [...out].sort((a, b) => a - b);
  return { ok: hits.length > 0, hits };
}

/**
 * Which marks the query itself needs (Manticore's CollectQuerySPZ: the snippet tokenizer emits
 * sentence/paragraph marks for SENTENCE / PARAGRAPH and zone marks for ZONE, whatever the boundary).
 */
export function querySpz(n: QueryNode): { sp: boolean; zones: boolean } {
  const out = { sp: false, zones: false };
  const walk = (q: QueryNode): void => {
    switch (q.kind) {
      case 'sentence': case 'paragraph': out.sp = true; q.children.forEach(walk); break;
      case 'zone': out.zones = true; walk(q.child); break;
      case 'and': case 'or': case 'order': case 'near': q.children.forEach(walk); break;
      case 'not': walk(q.child); break;
      case 'maybe': walk(q.left); walk(q.right); break;
      default: break;
    }
  };
  walk(n);
  return out;
}
