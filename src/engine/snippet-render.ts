/**
 * Turns a field's stream into text: the whole text with matches marked, chosen passages with
 * matches marked, or the start of the text cut to the limit. Adjacent matched words share one
 * marker pair (folded spans), and retain mode never opens a marker across an HTML tag.
 */
import { cpLen, PieceKind, type FieldStream } from './snippet-stream.js';
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
  return m.replace(MACRO, String(id));
}

/** Whole-text mode (QueryHighlighter_c); '' when nothing matched and allowEmpty. */
export function renderWhole(s: FieldStream, mk: Markers, allowEmpty: boolean): string {
  let out = '';
  let openUntil = 0;
  let lastPos = 0;
  let matches = 0;
  let trailing = -1;
  let reopen = false;
  const close = (pos: number): void => {
    if (!openUntil || pos < openUntil) return;
    if (!reopen) out += marker(mk.after, mk.id++);
    openUntil = 0;
    trailing = -1;
    reopen = false;
  };
  for (const p of s.pieces) {
    const text = s.text.slice(p.start, p.end);
    if (p.kind === PieceKind.Word) {
      close(p.pos);
      if (reopen) { out += marker(mk.before, mk.id); reopen = false; }
      if (p.openUntil && !openUntil) {
        out += marker(mk.before, mk.id);
        matches++;
        openUntil = p.openUntil;
      }
      out += text;
      trailing = -1;
      lastPos = p.pos;
    } else if (p.kind === PieceKind.Gap) {
      close(lastPos + 1);
      if (openUntil && !reopen && trailing < 0) trailing = out.length;
      out += text;
    } else {
      close(lastPos + 1);
      if (openUntil && !reopen) {
        const tail = trailing >= 0 ? out.slice(trailing) : '';
        if (trailing >= 0) out = out.slice(0, trailing);
        out += marker(mk.after, mk.id++) + tail;
        trailing = -1;
        reopen = true;
      }
      out += text;
    }
  }
  if (!matches && allowEmpty) return '';
  if (openUntil && !reopen) out += marker(mk.after, mk.id++);
  return out;
}

/** The start of the field cut to `limit` codepoints, a separator where it was cut (DocStartHighlighter_c). */
export function renderStart(s: FieldStream, limit: number, used: { cp: number }, separator: string): string {
  let out = '';
  for (const p of s.pieces) {
    const len = cpLen(s.text, p.start, p.end);
    const ok = limit <= 0 || used.cp + len <= limit;
    if (ok || !out.length) {
      out += s.text.slice(p.start, p.end);
      if (limit > 0) used.cp += len;
    }
    if (!ok) return out + separator;
  }
  return out;
}

/** The chosen passages of one field, marked (PassageHighlighter_c). */
export function renderPassages(s: FieldStream, passages: PickedPassage[], mk: Markers, zones: boolean): PassageText[] {
  const res: PassageText[] = passages.map((p) => ({ text: '', startSep: true, endSep: true, weight: p.weight }));
  let cur = -1;
  let openPos = 0;
  let openNum = 0;
  let lastPos = 0;
  let zone = '';
  let lastOpen = -1;
  const inside = (i: number, k: number): boolean => i >= passages[k].start && i <= passages[k].start + passages[k].tokens - 1;
  const close = (pos: number, i: number): void => {
    if ((!openPos || pos < openPos) && (!openNum || i < openNum)) return;
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
    if (cur >= 0 && prev !== cur && zones && zone) res[cur].text += `<${zone}>`;
  };
  // markers open only inside passages: start at the first one, stop once past the last and closed
  const last = passages[passages.length - 1];
  const lastEnd = last.start + last.tokens - 1;
  if (zones) for (let i = 0; i < passages[0].start; i++) if (s.counted[i].zone !== undefined) zone = s.counted[i].zone as string;
  for (let i = passages[0].start; i < s.counted.length; i++) {
    if (i > lastEnd && !openPos) break;
    const p = s.counted[i];
    if (p.zone !== undefined) zone = p.zone;
    if (p.kind === PieceKind.Word) {
      if (openPos) close(p.pos, i);
      update(i);
      if (cur >= 0) {
        if (p.openUntil && !openPos) {
          res[cur].text += marker(mk.before, mk.id);
          openPos = p.openUntil;
          openNum = passages[cur].start + passages[cur].tokens;
          lastOpen = cur;
        }
        res[cur].text += s.text.slice(p.start, p.end);
      }
      lastPos = p.pos;
    } else {
      if (openPos) close(lastPos + 1, i);
      update(i);
      if (cur >= 0) res[cur].text += s.text.slice(p.start, p.end);
    }
  }
  if (openPos) res[lastOpen].text += marker(mk.after, mk.id++);
  if (lastEnd >= s.counted.length - 1) res[passages.length - 1].endSep = false;
  return res;
}
