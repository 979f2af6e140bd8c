// The sliding window of the passage extractor (Manticore's TokenSpan_c): quads (keyword mask,
// lengthCP, wordFlag, words before it) from `head`, with running counts, and the window's keyword
// tokens in order, so its first and last keyword are known without walking it.

import { WordVec } from "../memory/heap";

const QUAD: u32 = 4;

export class Window {
  // the window (Manticore's TokenSpan_c): quads (mask, lengthCP, wordFlag, words added before it) from `head`
  sv: WordVec = new WordVec();
  head: u32 = 0;
  n: i32 = 0;
  sStart: i32 = -1;
  sWords: i32 = 0;
  sQwords: i32 = 0;
  sCodes: i32 = 0;
  cur: i32 = 0;
  /** Words added since the last reset (the next token's words-before count). */
  wAll: i32 = 0;
  /** Quad indices of the tokens with a keyword mask, in order; those before `kh` have left the window. */
  kv: WordVec = new WordVec();
  kh: u32 = 0;

  spanReset(): void {
    this.sv.len = 0; this.head = 0; this.n = 0;
    this.sStart = -1; this.sWords = 0; this.sQwords = 0; this.sCodes = 0;
    this.wAll = 0; this.kv.len = 0; this.kh = 0;
  }

  spanAdd(word: i32, qword: bool, mask: u32, len: i32): void {
    const q = qword && word == 1;
    const m = q ? mask : 0;
    this.sv.ensure(QUAD);
    const at = this.sv.len;
    if (m) {
      this.kv.ensure(1);
      this.kv.set(this.kv.len++, at / QUAD);
    }
    this.sv.set(at, m);
    this.sv.set(at + 1, <u32>len);
    this.sv.set(at + 2, <u32>word);
    this.sv.set(at + 3, <u32>this.wAll);
    this.sv.len += QUAD;
    this.n++;
    this.wAll += word;
    this.sCodes += len;
    this.sWords += word;
    if (q) this.sQwords++;
    if (this.sStart < 0) this.sStart = this.cur;
  }

  /** Drops the window's first `k` tokens (the caller has taken them off the running counts). */
  dropHead(k: u32): void {
    this.head += k;
    this.n -= <i32>k;
    while (this.kh < this.kv.len && this.kv.at(this.kh) < this.head) this.kh++;
  }

  @inline sMask(i: i32): u32 { return this.sv.at((this.head + <u32>i) * QUAD); }
  @inline sLen(i: i32): i32 { return <i32>this.sv.at((this.head + <u32>i) * QUAD + 1); }
  @inline sWord(i: i32): i32 { return <i32>this.sv.at((this.head + <u32>i) * QUAD + 2); }
  /** Words of the window before its token `i`. */
  @inline sWordsBefore(i: i32): i32 { return <i32>this.sv.at((this.head + <u32>i) * QUAD + 3) - <i32>this.sv.at(this.head * QUAD + 3); }
  /** Whether the window holds a token with a keyword mask. */
  @inline hasKeyword(): bool { return this.kh < this.kv.len; }
  /** Window indices of its first and last token with a keyword mask (hasKeyword). */
  @inline firstKeyword(): i32 { return <i32>(this.kv.at(this.kh) - this.head); }
  @inline lastKeyword(): i32 { return <i32>(this.kv.at(this.kv.len - 1) - this.head); }
}
