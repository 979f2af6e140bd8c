/** The snippet matcher's span helpers: SENTENCE / PARAGRAPH units and ZONE spans from the marks, and NOTNEAR. */
import type { SpzMark } from '../../src/text/spz-marks.js';
import type { Token } from '../../src/text/text-pipeline.js';
import { near as refNear } from './hits.js';

/** Positions stay below this (Manticore's 24-bit hitpos); a range's open end. */
const POS_LIMIT = 1 << 24;
/** Hit keys carry the field above the position (same layout as snippet-match's FIELD_SHIFT). */
const FIELD_SHIFT = 1 << 24;

/** Hit keys strictly between lo and hi (keys: field * FIELD_SHIFT + pos, so a range may cross fields). */
export interface Range { lo: number; hi: number }

interface SpanField { tokens: Token[]; marks?: SpzMark[] }

interface Res { ok: boolean; hits: number[] }

/**
 * Units between boundary marks over the whole document, fields in order: the index stores a
 * sentence mark for every mark and a paragraph mark for paragraphs and zone tags (BuildZoneHits),
 * and Manticore's ExtUnit compares hit positions with their fields, so only a mark separates.
 */
export function unitRanges(fields: SpanField[], kind: 'sentence' | 'paragraph'): Range[] {
  const out: Range[] = [];
  let lo = 0;
  fields.forEach((f, field) => {
    for (const m of f.marks ?? []) {
      if (kind === 'paragraph' && m.kind === 'sentence') continue;
      const key = field * FIELD_SHIFT + m.pos;
      out.push({ lo, hi: key });
      lo = key;
    }
  });
  out.push({ lo, hi: Number.MAX_SAFE_INTEGER });
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
      out.push({ lo: field * FIELD_SHIFT + m.pos, hi: field * FIELD_SHIFT + (close ? close.pos : POS_LIMIT) });
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
 * NEAR/N: Manticore's FSMmultinear_c chains (the ranking reference's twin) over the operands'
 * hits; each chain marks every position from its first hit to the hit completing it (its match
 * length; the caller keeps only keyword occurrences, as SplitSpans).
 */
export function near(parts: (Res | null)[], distance: number): Res {
  const rs = parts.filter((r): r is Res => r !== null);
  if (!rs.length || rs.some((r) => !r.ok)) return { ok: false, hits: [] };
  if (rs.length === 1) return rs[0];
  const chains = refNear(rs.map((r, i) => r.hits.map((pos) => ({ pos, qpos: i + 1, span: 1, weight: 1 }))), distance);
  const out = new Set<number>();
  for (const c of chains) {
    let end = c.pos;
    for (const r of rs) {
      const h = r.hits.find((x) => x >= c.pos);
      if (h !== undefined && Math.floor(h / FIELD_SHIFT) === Math.floor(c.pos / FIELD_SHIFT) && h > end) end = h;
    }
    for (let p = c.pos; p <= end; p++) out.add(p);
  }
  const hits = [...out].sort((a, b) => a - b);
  return { ok: hits.length > 0, hits };
}
