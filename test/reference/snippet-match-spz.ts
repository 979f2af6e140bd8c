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

/**
 * Spans of the listed zones, as Manticore's zone checker pairs opening and closing tag hits over
 * the whole document (hit keys, fields in order): no closing tag, no span; ends before the first
 * start are skipped; a start after the last end runs to the end. A span holds its tags' positions.
 */
export function zoneRanges(fields: SpanField[], zones: string[]): Range[] {
  const out: Range[] = [];
  for (const z of new Set(zones.map((x) => x.toLowerCase()))) {
    const starts: number[] = [];
    const ends: number[] = [];
    fields.forEach((f, field) => {
      for (const m of f.marks ?? []) {
        if (m.kind !== 'zone') continue;
        if (m.zone === z) starts.push(field * FIELD_SHIFT + m.pos);
        else if (m.zone === `/${z}`) ends.push(field * FIELD_SHIFT + m.pos);
      }
    });
    for (const [b, e] of pairTags(starts, ends)) out.push({ lo: b - 1, hi: e + 1 });
  }
  return out;
}

/** The zone checker's start/end FSM (IsInZone's span building), written out. */
function pairTags(s: number[], e: number[]): [number, number][] {
  const out: [number, number][] = [];
  if (!s.length || !e.length) return out;
  let si = 0;
  let ei = 0;
  let eof = 0;
  while (eof === 0 && e[ei] < s[si]) { ei++; if (ei >= e.length) eof |= 2; }
  if (eof) return out;
  let inSpan = true;
  let b = s[si];
  let end = e[ei];
  while (eof !== 3) {
    if (inSpan || (eof & 2)) { si++; if (si >= s.length) eof |= 1; } else { ei++; if (ei >= e.length) eof |= 2; }
    const endPos = eof & 2 ? Number.MAX_SAFE_INTEGER : e[ei];
    if (!(eof & 1) && s[si] < endPos) {
      if (!inSpan) { inSpan = true; out.push([b, end]); b = s[si]; }
    } else if (!(eof & 2)) {
      inSpan = false;
      end = e[ei];
    }
  }
  if (b < end) out.push([b, end]);
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
  const field = (h: number): number => Math.floor(h / FIELD_SHIFT);
  for (const c of chains) {
    // the hit completing the chain: two operands, the next operand hit; more, where all are present
    let end = -1;
    if (rs.length === 2) {
      const next = rs.map((r) => r.hits.find((x) => x > c.pos)).filter((x): x is number => x !== undefined && field(x) === field(c.pos));
      if (next.length) end = Math.min(...next);
    } else {
      const first = rs.map((r) => r.hits.find((x) => x >= c.pos));
      if (first.every((x) => x !== undefined && field(x) === field(c.pos))) end = Math.max(...(first as number[]));
    }
    if (end < 0) end = c.pos + c.span - 1;
    for (let p = c.pos; p <= end; p++) out.add(p);
  }
  const hits = [...out].sort((a, b) => a - b);
  return { ok: hits.length > 0, hits };
}
