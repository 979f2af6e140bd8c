/** blend_chars and blend_mode: a token with blend characters stands whole (its variants) and as its parts. */
import { SearchError } from '../util/errors.js';
import { FLAG_BLEND, type CharsetTable } from './charset-table.js';

/** blend_mode variant bits (Manticore's BLEND_TRIM_*); variants come out in the order NONE, ALL, BOTH, HEAD, TAIL. */
export const TRIM_NONE = 1;
export const TRIM_HEAD = 2;
export const TRIM_TAIL = 4;
export const TRIM_BOTH = 8;
export const TRIM_ALL = 16;

const MODE_WORDS: Record<string, number> = {
  trim_none: TRIM_NONE, trim_head: TRIM_HEAD, trim_tail: TRIM_TAIL, trim_both: TRIM_BOTH, trim_all: TRIM_ALL,
};

export interface BlendMode {
  /** TRIM_* bits: which forms of a blended token are indexed. */
  variants: number;
  /** skip_pure: a token made only of blend characters is not indexed at all. */
  skipPure: boolean;
}

/** blend_mode unset or empty: the whole token only (trim_none), pure-blend tokens kept. */
export const DEFAULT_BLEND_MODE: BlendMode = { variants: TRIM_NONE, skipPure: false };

/** Manticore's sphIsAlpha: what a blend_mode word is made of. */
const isAlpha = (c: string): boolean => /[0-9A-Za-z_-]/.test(c);

/**
 * Parses blend_mode (Manticore's SetBlendMode): words separated by anything else, case-sensitive.
 * An unknown word is an error quoting the rest of the value from that word on.
 */
export function parseBlendMode(value: string): BlendMode {
  if (value === '') return DEFAULT_BLEND_MODE;
  let variants = 0;
  let skipPure = false;
  for (let p = 0; p < value.length;) {
    while (p < value.length && !isAlpha(value[p])) p++;
    if (p >= value.length) break;
    const start = p;
    while (p < value.length && isAlpha(value[p])) p++;
    const word = value.slice(start, p);
    if (word === 'skip_pure') skipPure = true;
    else if (Object.hasOwn(MODE_WORDS, word)) variants |= MODE_WORDS[word];
    else throw new SearchError('BAD_SETTING', `'blend_mode': unknown blend_mode option near '${value.slice(start)}'`);
  }
  if (!variants) throw new SearchError('BAD_SETTING', "'blend_mode': blend_mode must define at least one variant to index");
  return { variants, skipPure };
}

/** What a folded token is to blending. */
export type BlendKind = 'plain' | 'pure' | 'blended';

/** The blend rules of one table: which folded characters blend, and the mode. */
export class Blender {
  constructor(private readonly table: CharsetTable, readonly mode: BlendMode) {}

  private blends(cp: number): boolean {
    return (this.table.lookup(cp) & FLAG_BLEND) !== 0;
  }

  /** Whether any of the first `len` folded UTF-16 units in `buf` is a blend character (a token's buffer). */
  blendsAny(buf: Uint16Array, len: number): boolean {
    for (let i = 0; i < len; i++) if (this.blends(buf[i])) return true;
    return false;
  }

  /** Whether any character of raw (unfolded) text is a blend character: a quick test before tokenizing. */
  touches(raw: string): boolean {
    for (const ch of raw) if (this.blends(ch.codePointAt(0)!)) return true;
    return false;
  }

  /** plain: no blend character; pure: only blend characters; blended: both. */
  kind(folded: string): BlendKind {
    let blend = false;
    let normal = false;
    for (const ch of folded) {
      if (this.blends(ch.codePointAt(0)!)) blend = true;
      else normal = true;
    }
    return !blend ? 'plain' : normal ? 'blended' : 'pure';
  }

  /**
   * The forms a blended token is indexed as, in Manticore's order, with its degenerate cases: a
   * head trim without heading blend characters (or a tail trim without trailing ones) gives the
   * whole token. Repeated forms are given once.
   */
  variants(folded: string): string[] {
    const mode = this.mode.variants;
    if (mode === TRIM_NONE) return [folded];
    const chars = [...folded];
    const normal = chars.map((c) => !this.blends(c.codePointAt(0)!));
    const start = normal.indexOf(true);
    const end = normal.lastIndexOf(true) + 1;
    let pending = mode;
    if ((pending & TRIM_HEAD) && start <= 0) pending = (pending & ~TRIM_HEAD) | TRIM_NONE;
    if ((pending & TRIM_TAIL) && end >= chars.length) pending = (pending & ~TRIM_TAIL) | TRIM_NONE;
    const out: string[] = [];
    if (pending & TRIM_NONE) out.push(folded);
    if (pending & TRIM_ALL) out.push(chars.filter((_, i) => normal[i]).join(''));
    if (pending & TRIM_BOTH) out.push(chars.slice(start, end).join(''));
    if (pending & TRIM_HEAD) out.push(chars.slice(start).join(''));
    if (pending & TRIM_TAIL) out.push(chars.slice(0, end).join(''));
    return [...new Set(out)];
  }
}

/** A token as the index walk reads it; `blend` marks the forms and parts of a blended token. */
export interface WalkToken {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly special: boolean;
  readonly overshort: number;
  readonly boundary: boolean;
  readonly zone: string;
  /** A variant of a blended token (the next token keeps its position), or one of its parts. */
  readonly blend?: 'variant' | 'part';
}

/** What reads a blended token's parts again from its source text (blend characters separating). */
export interface PartsReader {
  reset(text: string): void;
  next(): boolean;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly special: boolean;
  readonly overshort: number;
}

/**
 * A token with blending applied (Manticore's BlendAdjust and GetBlendedVariant): a plain token is
 * itself; a pure-blend one is itself, or nothing with skip_pure; a blended one is its variants,
 * then its parts, read again from `source` between the token's offsets.
 */
export function expandBlended(b: Blender, t: WalkToken, source: string, parts: PartsReader): WalkToken[] {
  const kind = b.kind(t.text);
  if (kind === 'plain') return [t];
  if (kind === 'pure') return b.mode.skipPure ? [] : [t];
  const out: WalkToken[] = b.variants(t.text).map((text, i) => ({
    ...t, text, blend: 'variant', overshort: i ? 0 : t.overshort, boundary: i ? false : t.boundary,
  }));
  parts.reset(source.slice(t.start, t.end));
  while (parts.next()) {
    if (parts.special) continue;
    out.push({
      text: parts.text, start: t.start + parts.start, end: t.start + parts.end, special: false,
      overshort: parts.overshort, boundary: false, zone: '', blend: 'part',
    });
  }
  return out;
}
