/**
 * Turns a field's stream into text: the whole text with matches marked, chosen passages with
 * matches marked, or the start of the text cut to the limit. Adjacent matched words share one
 * marker pair (folded spans), and retain mode never opens a marker across an HTML tag.
 */
import { cpLen, P_END, P_KIND, P_OPEN, P_POS, P_START, PIECE_WORDS, PieceKind, type FieldStream } from './snippet-stream.js';
import type { PickedPassage } from '../wasm/snippet.js';

export interface Markers {
  before: string;
  after: string;
  /** `%SNIPPET_ID%` counter, shared by the fields of one document. */
  id: number;
}

export interface PassageText {
  text: string;
  startSep: boolean;
  endSep: boolean;
  weight: number;
  /** Emitted zone name prefix (emit_zones). */
  zone?: string;
}

const MACRO = /%SNIPPET_ID%|%PASSAGE_ID%/;

/** A marker with its first `%SNIPPET_ID%` replaced by the counter. */
export function marker(m: string, id: number): string {
  return m.indexOf('%') < 0 ? m : m.replace(MACRO, String(id));
}

/**
 * Whole-text mode (QueryHighlighter_c); '' when nothing matched and allowEmpty. Pieces that follow
 * each other in the text are copied as one slice up to the next marker (a piece at a time was a rope
 * of a few hundred parts per field).
 */
export function renderWhole(s: FieldStream, mk: Markers, allowEmpty: boolean): string {
  let out = '';
  let from = 0;
  let to = 0;
  const flush = (): void => { if (to > from) out += s.text.slice(from, to); from = to; };
  const take = (start: number, end: number): void => {
    if (start !== to) { flush(); from = start; }
    to = end;
  };
  let openUntil = 0;
  let lastPos = 0;
  let matches = 0;
  let trailing = -1;
  let reopen = false;
  const close = (pos: number): void => {
    if (!openUntil || pos < openUntil) return;
    if (!reopen) { flush(); out += marker(mk.after, mk.id++); }
    openUntil = 0;
    trailing = -1;
    reopen = false;
  };
  const d = s.pieces.data;
  for (let i = 0; i < s.pieces.n; i++) {
    const at = i * PIECE_WORDS;
    const kind = d[at + P_KIND];
    const start = d[at + P_START];
    const end = d[at + P_END];
    if (kind === PieceKind.Word) {
      const pos = d[at + P_POS];
      const open = d[at + P_OPEN];
      close(pos);
      if (reopen) { flush(); out += marker(mk.before, mk.id); reopen = false; }
      if (open && !openUntil) {
        flush();
        out += marker(mk.before, mk.id);
        matches++;
        openUntil = open;
      }
      take(start, end);
      trailing = -1;
      lastPos = pos;
    } else if (kind === PieceKind.Gap) {
      close(lastPos + 1);
      if (openUntil && !reopen && trailing < 0) { flush(); trailing = out.length; }
      take(start, end);
    } else {
      close(lastPos + 1);
      if (openUntil && !reopen) {
        flush();
        const tail = trailing >= 0 ? out.slice(trailing) : '';
        if (trailing >= 0) out = out.slice(0, trailing);
        out += marker(mk.after, mk.id++) + tail;
        trailing = -1;
        reopen = true;
      }
      take(start, end);
    }
  }
  flush();
  if (!matches && allowEmpty) return '';
  if (openUntil && !reopen) out += marker(mk.after, mk.id++);
  return out;
}

/** The start of the field cut to `limit` codepoints, a separator where it was cut (DocStartHighlighter_c). */
export function renderStart(s: FieldStream, limit: number, used: { cp: number }, separator: string): string {
  // the pieces taken are one run of text while they follow each other (no cut-out marks): copied once
  let out = '';
  let from = 0;
  let to = 0;
  const flush = (): void => { if (to > from) out += s.text.slice(from, to); from = to; };
  const d = s.pieces.data;
  const n = s.pieces.n;
  // each piece taken counts its own code points: a test of the whole covered text for surrogate pairs
  // (then units or code points for every piece) read all of a long field to show its first `limit`
  for (let i = 0; i < n; i++) {
    const start = d[i * PIECE_WORDS + P_START];
    const end = d[i * PIECE_WORDS + P_END];
    const len = cpLen(s.text, start, end);
    const ok = limit <= 0 || used.cp + len <= limit;
    if (ok || (!out.length && to === from)) {
      if (start !== to) { flush(); from = start; }
      to = end;
      if (limit > 0) used.cp += len;
    }
    if (!ok) { flush(); return out + separator; }
  }
  flush();
  return out;
}

/** The chosen passages of one field, marked (PassageHighlighter_c). */
export function renderPassages(s: FieldStream, passages: PickedPassage[], mk: Markers, zones: boolean): PassageText[] {
  return zones || !disjoint(passages) ? renderWalk(s, passages, mk, zones) : renderPlain(s, passages, mk);
}

/** Passages of at least one piece each, every one after the one before (what the pick gives). */
function disjoint(passages: PickedPassage[]): boolean {
  let end = -1;
  for (const p of passages) {
    if (p.tokens < 1 || p.start <= end) return false;
    end = p.start + p.tokens - 1;
  }
  return true;
}

/**
 * renderPassages without emit_zones for disjoint passages in document order, passage by passage: each
 * walks its own pieces, and a marker still open at its end closes there (the walk of every piece from
 * the first passage, with closures per piece, was the builder's largest JavaScript cost). Same output
 * as renderWalk without zones (a property test).
 */
function renderPlain(s: FieldStream, passages: PickedPassage[], mk: Markers): PassageText[] {
  const res: PassageText[] = [];
  const d = s.pieces.data;
  const counted = s.counted;
  const text = s.text;
  for (let k = 0; k < passages.length; k++) {
    const p = passages[k];
    const end = Math.min(p.start + p.tokens - 1, counted.length - 1);
    let out = '';
    let startSep = true;
    let openPos = 0;
    let lastPos = 0;
    // text pieces that follow each other are copied as one slice, flushed before a marker
    let runFrom = -1;
    let runTo = -1;
    for (let i = p.start; i <= end; i++) {
      if (i === 0 && k === 0) startSep = false;
      const at = counted[i] * PIECE_WORDS;
      if (d[at + P_KIND] === PieceKind.Word) {
        const pos = d[at + P_POS];
        if (openPos && pos >= openPos) {
          if (runTo > runFrom) out += text.slice(runFrom, runTo);
          runFrom = runTo;
          out += marker(mk.after, mk.id++);
          openPos = 0;
        }
        const open = d[at + P_OPEN];
        if (open && !openPos) {
          if (runTo > runFrom) out += text.slice(runFrom, runTo);
          runFrom = runTo;
          out += marker(mk.before, mk.id);
          openPos = open;
        }
        lastPos = pos;
      } else if (openPos && lastPos + 1 >= openPos) {
        if (runTo > runFrom) out += text.slice(runFrom, runTo);
        runFrom = runTo;
        out += marker(mk.after, mk.id++);
        openPos = 0;
      }
      const from = d[at + P_START];
      if (from !== runTo) {
        if (runTo > runFrom) out += text.slice(runFrom, runTo);
        runFrom = from;
      }
      runTo = d[at + P_END];
    }
    if (runTo > runFrom) out += text.slice(runFrom, runTo);
    if (openPos) out += marker(mk.after, mk.id++);
    res.push({ text: out, startSep, endSep: true, weight: p.weight });
  }
  const last = passages[passages.length - 1];
  if (last.start + last.tokens - 1 >= counted.length - 1) res[passages.length - 1].endSep = false;
  return res;
}

/** renderPassages piece by piece from the first passage on, following the enclosing zones (emit_zones). */
export function renderWalk(s: FieldStream, passages: PickedPassage[], mk: Markers, zones: boolean): PassageText[] {
  const res: PassageText[] = passages.map((p) => ({ text: '', startSep: true, endSep: true, weight: p.weight }));
  let cur = -1;
  let openPos = 0;
  let openNum = 0;
  let lastPos = 0;
  let zone = '';
  let lastOpen = -1;
  const inside = (i: number, k: number): boolean => i >= passages[k].start && i <= passages[k].start + passages[k].tokens - 1;
  // text pieces that follow each other in the field are copied as one slice (flushed before a marker)
  let runPassage = -1;
  let runFrom = 0;
  let runTo = 0;
  const flush = (): void => {
    if (runPassage >= 0 && runTo > runFrom) res[runPassage].text += s.text.slice(runFrom, runTo);
    runPassage = -1;
  };
  const copy = (k: number, from: number, to: number): void => {
    if (k === runPassage && from === runTo) { runTo = to; return; }
    flush();
    runPassage = k;
    runFrom = from;
    runTo = to;
  };
  const close = (pos: number, i: number): void => {
    if ((!openPos || pos < openPos) && (!openNum || i < openNum)) return;
    flush();
    res[lastOpen].text += marker(mk.after, mk.id++);
    openPos = 0;
    openNum = 0;
  };
  const update = (i: number): void => {
    const prev = cur;
    if (cur < 0 || !inside(i, cur)) {
      const from = cur >= 0 && i > passages[cur].start + passages[cur].tokens - 1 ? cur + 1 : 0;
      cur = -1;
      for (let k = from; k < passages.length; k++) if (inside(i, k)) { cur = k; break; }
    }
    if (cur === 0 && i === 0) res[0].startSep = false;
    if (cur >= 0 && prev !== cur && zones && zone) { flush(); res[cur].text += `<${zone}>`; }
  };
  // markers open only inside passages: start at the first one, stop once past the last and closed
  const last = passages[passages.length - 1];
  const lastEnd = last.start + last.tokens - 1;
  if (zones) for (let i = 0; i < passages[0].start; i++) { const z = s.zones.get(i); if (z !== undefined) zone = z; }
  const d = s.pieces.data;
  for (let i = passages[0].start; i < s.counted.length; i++) {
    if (i > lastEnd && !openPos) break;
    const at = s.counted[i] * PIECE_WORDS;
    if (zones) { const z = s.zones.get(i); if (z !== undefined) zone = z; }
    if (d[at + P_KIND] === PieceKind.Word) {
      const pos = d[at + P_POS];
      const open = d[at + P_OPEN];
      if (openPos) close(pos, i);
      update(i);
      if (cur >= 0) {
        if (open && !openPos) {
          flush();
          res[cur].text += marker(mk.before, mk.id);
          openPos = open;
          openNum = passages[cur].start + passages[cur].tokens;
          lastOpen = cur;
        }
        copy(cur, d[at + P_START], d[at + P_END]);
      }
      lastPos = pos;
    } else {
      if (openPos) close(lastPos + 1, i);
      update(i);
      if (cur >= 0) copy(cur, d[at + P_START], d[at + P_END]);
    }
    // nothing open and no zone to follow: the pieces before the next passage are skipped
    if (!openPos && !zones) {
      let k = cur >= 0 ? cur : 0;
      while (k < passages.length && passages[k].start + passages[k].tokens - 1 < i + 1) k++;
      if (k < passages.length && passages[k].start > i + 1) i = passages[k].start - 1;
    }
  }
  flush();
  if (openPos) res[lastOpen].text += marker(mk.after, mk.id++);
  if (lastEnd >= s.counted.length - 1) res[passages.length - 1].endSep = false;
  return res;
}
