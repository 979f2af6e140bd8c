/**
 * Blended words in highlighting: a blended token whose own position is not hit but one of whose
 * parts is (query `buddy` on `dude/buddy`) is split into its parts, so the part alone is marked as
 * Manticore's snippet stream marks it (`dude/<b>buddy</b>`; the text between parts is a gap).
 */
import type { Token } from '../text/text-pipeline.js';
import { FIELD_SHIFT } from './snippet-doc-index.js';

/** True when the sorted hit keys hold `key`. */
function hasKey(hits: number[], key: number): boolean {
  let lo = 0;
  let hi = hits.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hits[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo < hits.length && hits[lo] === key;
}

/** The token's parts in text order, when it is to be split (a part hit, its own position not), else null. */
function hitParts(t: Token, hits: number[], base: number): Token[] | null {
  if (!t.inner || hasKey(hits, base + t.pos)) return null;
  const parts = t.inner.filter((x) => x.part);
  if (!parts.some((x) => hasKey(hits, base + x.pos))) return null;
  return parts.sort((a, b) => a.start - b.start);
}

/**
 * The field's tokens with such blended tokens split into their parts (the first part keeps the
 * token's variants as `inner`, so the document indexes as before); the same array when none is.
 */
export function splitHitParts(tokens: Token[], hits: number[], field: number): Token[] {
  if (!hits.length) return tokens;
  const base = field * FIELD_SHIFT;
  let out: Token[] | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const parts = hitParts(t, hits, base);
    if (!parts) { out?.push(t); continue; }
    out ??= tokens.slice(0, i);
    const variants = t.inner!.filter((x) => !x.part);
    // the whole token's own term stays indexed at its position with the first part
    const keep: Token = { text: t.text, term: t.term, pos: t.pos, start: t.start, end: t.end };
    parts.forEach((p, j) => out!.push(j === 0 ? { ...p, part: undefined, inner: [keep, ...variants] } : { ...p, part: undefined }));
  }
  return out ?? tokens;
}
