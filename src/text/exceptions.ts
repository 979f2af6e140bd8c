/** Exceptions: `from => to` lines mapping raw, case-sensitive text (whitespace folded) to one token. */
import { SearchError } from '../util/errors.js';
import { settingFileNames, settingTexts } from './setting-texts.js';
import { checkExternalFile } from './wordforms.js';
import { textFiles } from './text-files.js';

/** A match of one exception in a text: [start, end) is replaced by the token `to`. */
export interface ExceptionMatch {
  start: number;
  end: number;
  to: string;
}

const SPACE = /\s/;

/** Trims and collapses whitespace runs to one space (Manticore's FoldSpace). */
function foldSpace(s: string): string {
  return s.trim().split(/\s+/).filter(Boolean).join(' ');
}

/** One line's mapping, or null when it has no `=>` or an empty side (Manticore warns and skips). */
export function parseExceptionLine(line: string): { from: string; to: string } | null {
  const at = line.indexOf('=>');
  if (at < 0) return null;
  const from = foldSpace(line.slice(0, at));
  const to = foldSpace(line.slice(at + 2));
  return from && to ? { from, to } : null;
}

export class Exceptions {
  /** Mappings by their first character, longest source first. */
  private readonly byFirst = new Map<string, { from: string; to: string }[]>();
  private count = 0;

  private constructor(pairs: Iterable<[string, string]>) {
    const seen = new Set<string>();
    for (const [from, to] of pairs) {
      // a repeated source is Manticore's "duplicate map-from part": the first one stays
      if (seen.has(from)) continue;
      seen.add(from);
      this.count++;
      const list = this.byFirst.get(from[0]) ?? [];
      list.push({ from, to });
      this.byFirst.set(from[0], list);
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.from.length - a.from.length);
  }

  static readonly NONE = new Exceptions([]);

  /** Loads the one file the setting names (or the `exceptions_list` entries); more than one file, or a missing one, is Manticore's error. */
  static fromSetting(value: string, list = ''): Exceptions {
    if (list === '' && settingFileNames(value).length > 1) {
      throw new SearchError('BAD_SETTING', "'exceptions' options only supports a single file");
    }
    const [text] = settingTexts(value, list, (name) => { checkExternalFile(name); return textFiles().read(name); });
    if (text === undefined) return Exceptions.NONE;
    const pairs: [string, string][] = [];
    for (const line of text.split(/\r?\n/)) {
      const m = parseExceptionLine(line);
      if (m) pairs.push([m.from, m.to]);
    }
    return new Exceptions(pairs);
  }

  /** From already folded pairs (tests). */
  static of(pairs: Iterable<[string, string]>): Exceptions {
    return new Exceptions([...pairs].map(([f, t]) => [foldSpace(f), foldSpace(t)]));
  }

  get size(): number {
    return this.count;
  }

  /**
   * Non-overlapping matches, left to right. A match starts where a word starts (exceptions honour
   * word boundaries, as Manticore checks them at a token's start) and ends before a separator or
   * the end; a space in a source matches any whitespace run; the longest source wins. With
   * `escapes` (query text) backslashes are skipped as queryMatchAt does.
   */
  find(text: string, isWordChar: (cp: number) => boolean, escapes = false): ExceptionMatch[] {
    const out: ExceptionMatch[] = [];
    if (this.byFirst.size === 0) return out;
    const wordAt = (i: number): boolean => i >= 0 && i < text.length && isWordChar(text.codePointAt(i) ?? 0);
    for (let i = 0; i < text.length; i++) {
      const list = this.byFirst.get(text[i]);
      if (!list || (i > 0 && wordAt(i - 1) && wordAt(i))) continue;
      let best: ExceptionMatch | null = null;
      for (const e of list) {
        const end = matchAt(text, i, e.from, escapes);
        let q = end;
        while (escapes && text[q] === '\\') q++;
        if (end >= 0 && !wordAt(q) && (!best || end > best.end)) best = { start: i, end, to: e.to };
      }
      if (best) {
        out.push(best);
        i = best.end - 1;
      }
    }
    return out;
  }

  /**
   * Query mode (Manticore's CheckException on query text): where the longest exception starting
   * at `i` ends, or -1. Backslashes are escapes, skipped while matching; the match must be followed
   * by a separator (past any backslashes) or the end.
   */
  queryMatchAt(text: string, i: number, isWordChar: (cp: number) => boolean): number {
    const list = this.byFirst.get(text[i]);
    if (!list) return -1;
    let best = -1;
    for (const e of list) {
      const end = matchAt(text, i, e.from, true);
      if (end <= best) continue;
      let q = end;
      while (text[q] === '\\') q++;
      if (q >= text.length || !isWordChar(text.codePointAt(q) ?? 0)) best = end;
    }
    return best;
  }
}

/**
 * Where `from` matched at `i` ends in `text`, or -1; a space in `from` eats a whitespace run. With
 * `escapes` (query text) a backslash is skipped and the character after it compared as is.
 */
function matchAt(text: string, i: number, from: string, escapes = false): number {
  let p = i;
  for (let k = 0; k < from.length; k++) {
    if (escapes && text[p] === '\\') p++;
    if (from[k] === ' ') {
      if (p >= text.length || !SPACE.test(text[p])) return -1;
      while (p < text.length && SPACE.test(text[p])) p++;
    } else {
      if (text[p] !== from[k]) return -1;
      p++;
    }
  }
  return p;
}
