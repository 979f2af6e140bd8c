/**
 * Windows of a long field that the highlight fast path scans instead of the whole text
 * (snippet-scan-path.ts): only the stretches within `radius` units of a place where a query keyword
 * may start. A prefilter (one regular expression over the text) finds those places from the first
 * two letters of each keyword's dictionary term, read through the charset's folding; the windows are
 * cut at whitespace, joined into one text, scanned and streamed as usual, and the pieces' offsets
 * mapped back into the whole text. (Two letters were too few: `li` of lizard starts a word every
 * ~150 units of gcide, so windows covered nearly every body and the prefilter was pure cost.) Why the snippets stay the same:
 * - every keyword occurrence lies inside a window (the prefilter finds a superset of them: stem_en
 *   keeps a word's letters in its term but the term's last, an `i` possibly from a `y`: checked over
 *   gcide's 189k words and by Porter2's rules, which rewrite only a suffix that the replacement
 *   starts alike; terms under three letters use their first letter only), so the found keywords and the query's hits are those of the whole text;
 * - a passage holds at most `limit` codepoints (raised to the longest keyword) and the passage walk
 *   reads at most that far back from a hit (extract.ts `skip`), so with `radius` beyond both no
 *   passage, context or trimmed window reaches a cut; the cut sits between a non-space and a space,
 *   so no word or gap run spans it, and no two hits are adjacent across it;
 * - the field's first and last pieces are the text's own unless a cut lies before or after every
 *   passage (startSep / endSep then hold as for the whole text);
 * - a windowed field without hits (whose start JSON shows) is scanned again whole by the caller, and
 *   text the whole scan would refuse (stripper marks, surrogate pairs) is never windowed.
 * Not taken (the caller scans the whole text): no limit, force_all_words (a window grows past the
 * limit to take every keyword), use_boundaries, dictionaries other than stem_en / none, wordforms,
 * exceptions, ignore_chars, or when the windows would cover most of the text.
 */
import { CODE_MASK, FLAG_IGNORE, type CharsetTable } from '../text/charset-table.js';
import type { TextSettings } from '../text/text-settings.js';

/** Extra units past the limit on each side: the longest keyword, a word and its gaps at the cut. */
export const WINDOW_SLACK = 96;
/** Windows closer than this are merged (a cut saves nothing). */
const MERGE_GAP = 64;
/** Windowed only when the windows leave at least this share of the text unscanned. */
const MIN_SAVED = 0.25;
/** Letters of a keyword's term the prefilter matches (fewer for short terms): more prune more places. */
const PREFIX_LETTERS = 4;
/** Shorter texts are scanned whole: two windows' worth at least. */
const MIN_UNITS = 512;

/** Per charset table: for each letter a-z, the code units folding to it; null with ignore_chars. */
const sourcesOf = new WeakMap<CharsetTable, string[] | null>();

function letterSources(cs: CharsetTable): string[] | null {
  let s = sourcesOf.get(cs);
  if (s !== undefined) return s;
  const lists: number[][] = Array.from({ length: 26 }, () => []);
  s = lists.map(() => '');
  for (let u = 0; u < cs.bmp.length; u++) {
    const e = cs.bmp[u];
    if (e & FLAG_IGNORE) { s = null; break; }
    const f = (e & CODE_MASK) - 0x61;
    if (f >= 0 && f < 26 && !(u >= 0xd800 && u <= 0xdfff)) lists[f].push(u);
  }
  if (s !== null) s = lists.map((l) => l.map((u) => u.toString(16).padStart(4, '0')).map((h) => `\\u${h}`).join(''));
  sourcesOf.set(cs, s);
  return s;
}

/** The settings under which a keyword's term keeps its token's first letters (checked over gcide's 189k words). */
export function windowsAllowed(ts: TextSettings): boolean {
  return ts.wordforms === '' && ts.exceptions === '' && ts.wordformsList === '' && ts.exceptionsList === '' && ts.morphology.every((m) => m === 'stem_en');
}

/** Per charset table, prefilters by their keyword terms: a request's query tree (and its plan) may be new each time, a RegExp's compile is not cheap. */
const patterns = new WeakMap<CharsetTable, Map<string, RegExp | null>>();
const MAX_PATTERNS = 256;

/**
 * The prefilter for a query's keyword terms: places where one may start, or null when a term does not
 * start with letters a-z the charset folds to (or it ignores characters).
 */
export function keywordPattern(keywords: ReadonlyMap<string, number>, cs: CharsetTable): RegExp | null {
  const last = lastOf.get(keywords);
  if (last !== undefined && last.cs === cs) return last.re;
  let byTerms = patterns.get(cs);
  if (!byTerms) { byTerms = new Map(); patterns.set(cs, byTerms); }
  const key = [...keywords.keys()].join('\u0001');
  let re = byTerms.get(key);
  if (re !== undefined) {
    lastOf.set(keywords, { cs, re });
    return re;
  }
  if (byTerms.size >= MAX_PATTERNS) byTerms.clear();
  re = null;
  const src = letterSources(cs);
  if (src) {
    const alts = new Set<string>();
    let ok = keywords.size > 0;
    for (const t of keywords.keys()) {
      // stem_en keeps a word's first letters in its term but the last (an i may be a y): up to four of them
      const n = t.length < 3 ? 1 : Math.min(t.length - 1, PREFIX_LETTERS);
      let alt = '';
      for (let i = 0; i < n && ok; i++) {
        const c = t.charCodeAt(i) - 0x61;
        if (!(c >= 0 && c < 26) || !src[c]) ok = false;
        else alt += `[${src[c]}${c === 8 ? src[24] : ''}]`;
      }
      if (!ok) break;
      alts.add(alt);
    }
    if (ok) re = new RegExp([...alts].join('|'), 'g');
  }
  byTerms.set(key, re);
  lastOf.set(keywords, { cs, re });
  return re;
}

/**
 * Per keywords map (a query plan's, which every document of a page or CALL SNIPPETS shares), the
 * prefilter last found for it: the terms' key string and two map look-ups were paid per long field.
 */
const lastOf = new WeakMap<ReadonlyMap<string, number>, { cs: CharsetTable; re: RegExp | null }>();

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** The start of the whitespace run at or before `i` (whose previous unit is no space), or 0. */
function runStartBefore(text: string, i: number): number {
  for (let k = i; k > 0; k--) if (isSpace(text.charCodeAt(k)) && !isSpace(text.charCodeAt(k - 1))) return k;
  return 0;
}

/** The start of the first whitespace run at or after `i` (whose previous unit is no space), or the text's end. */
function runStartAfter(text: string, i: number): number {
  for (let k = Math.max(i, 1); k < text.length; k++) if (isSpace(text.charCodeAt(k)) && !isSpace(text.charCodeAt(k - 1))) return k;
  return text.length;
}

/**
 * The windows [start, end) of `text` around every place `re` finds, `radius` units each side of
 * the word there, as a flat list; null when the text is short or they would cover most of it.
 */
export function windowsOf(text: string, re: RegExp, radius: number): number[] | null {
  if (text.length < windowMinUnits(radius)) return null;
  const out: number[] = [];
  let covered = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const p = m.index;
    // the word at p ends before the next whitespace run
    const wordEnd = runStartAfter(text, p + 1);
    const start = runStartBefore(text, p - radius);
    const end = runStartAfter(text, wordEnd + radius);
    const n = out.length;
    if (n && start <= out[n - 1] + MERGE_GAP) {
      if (end > out[n - 1]) { covered += end - out[n - 1]; out[n - 1] = end; }
    } else {
      out.push(start, end);
      covered += end - start;
    }
    // past the middle, a text covered this densely so far will be covered nearly whole: the rest of the pass is waste
    if (covered > (1 - MIN_SAVED) * Math.max(end, text.length >> 1)) return null;
    re.lastIndex = Math.max(p + 1, end - radius);
    if (end >= text.length) break;
  }
  return out;
}

/** Texts shorter than this are scanned whole (no prefilter): two windows' worth at least. */
export function windowMinUnits(radius: number): number {
  return Math.max(MIN_UNITS, 4 * radius);
}

/** The windows' text, one after another. */
export function joinWindows(text: string, w: number[]): string {
  let s = '';
  for (let i = 0; i < w.length; i += 2) s += text.slice(w[i], w[i + 1]);
  return s;
}

/**
 * Maps the pieces' offsets (`words` i32 a piece, start and end at `startAt`, `startAt + 1`) from the
 * joined windows back into the text. A piece lies inside one window (cuts fall between a non-space and
 * a space, where pieces split); pieces are in text order.
 */
export function mapPieces(d: Int32Array, n: number, words: number, startAt: number, w: number[]): void {
  let k = 0;
  let joinedEnd = w[1] - w[0];
  let shift = w[0];
  for (let i = 0; i < n; i++) {
    const at = i * words + startAt;
    while (d[at] >= joinedEnd && k + 2 < w.length) {
      k += 2;
      shift = w[k] - joinedEnd;
      joinedEnd += w[k + 1] - w[k];
    }
    d[at] += shift;
    d[at + 1] += shift;
  }
}
