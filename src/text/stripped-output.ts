/** The stripper's output buffer: UTF-16 units with their source spans, and the whitespace pass. */
import { isHtmlSpace } from './html-tags.js';
import { PARAGRAPH_MARK, ZONE_MARK } from './spz-marks.js';

const SPACE = 0x20;

/** Stripped text plus, for each of its UTF-16 units, the span of the original text it came from. */
export interface StrippedText {
  text: string;
  /** null: the text is the original, unchanged (offsets map to themselves). */
  starts: Uint32Array | null;
  ends: Uint32Array | null;
}

/** Growable output: code units with their source spans. */
export class Output {
  units: Uint16Array;
  starts: Uint32Array;
  ends: Uint32Array;
  len = 0;

  constructor(capacity: number) {
    this.units = new Uint16Array(capacity);
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
  }

  push(unit: number, from: number, to: number): void {
    if (this.len === this.units.length) this.grow();
    this.units[this.len] = unit;
    this.starts[this.len] = from;
    this.ends[this.len++] = to;
  }

  pushCodepoint(cp: number, from: number, to: number): void {
    if (cp < 0x10000) this.push(cp, from, to);
    else {
      this.push(0xd800 + ((cp - 0x10000) >> 10), from, to);
      this.push(0xdc00 + ((cp - 0x10000) & 0x3ff), from, to);
    }
  }

  private grow(): void {
    const n = this.units.length * 2 + 16;
    const u = new Uint16Array(n); u.set(this.units); this.units = u;
    const s = new Uint32Array(n); s.set(this.starts); this.starts = s;
    const e = new Uint32Array(n); e.set(this.ends); this.ends = e;
  }

  private move(from: number, to: number, unit: number): void {
    this.units[to] = unit;
    this.starts[to] = this.starts[from];
    this.ends[to] = this.ends[from];
  }

  /**
   * The second pass of Manticore's stripper: whitespace runs become one space, repeated paragraph
   * marks one mark, and a zone mark swallows a paragraph mark just before it.
   */
  finish(): StrippedText {
    let w = 0;
    let spaceOut = false;
    let paraOut = false;
    let zoneOut = false;
    for (let r = 0; r < this.len; r++) {
      const c = this.units[r];
      if (isHtmlSpace(c)) {
        if (!spaceOut) this.move(r, w++, SPACE);
        spaceOut = true;
      } else if (c === PARAGRAPH_MARK) {
        if (!paraOut && !zoneOut) {
          this.move(r, w++, c);
          paraOut = true;
        }
        spaceOut = true;
      } else if (c === ZONE_MARK) {
        if (paraOut) w--;
        this.move(r, w++, c);
        while (r + 1 < this.len && this.units[r + 1] !== ZONE_MARK) { r++; this.move(r, w++, this.units[r]); }
        if (r + 1 < this.len) { r++; this.move(r, w++, c); }
        spaceOut = zoneOut = true;
        paraOut = false;
      } else {
        this.move(r, w++, c);
        spaceOut = paraOut = zoneOut = false;
      }
    }
    let text = '';
    const CHUNK = 8192;
    for (let k = 0; k < w; k += CHUNK) {
      text += String.fromCharCode.apply(null, this.units.subarray(k, Math.min(w, k + CHUNK)) as unknown as number[]);
    }
    return { text, starts: this.starts.subarray(0, w), ends: this.ends.subarray(0, w) };
  }
}
