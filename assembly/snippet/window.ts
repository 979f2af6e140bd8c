// The sliding window of the passage extractor (Manticore's TokenSpan_c): triples (keyword mask,
// lengthCP, wordFlag) from `head`, with running counts.

import { WordVec } from "../memory/heap";

export class Window {
  // the window (Manticore's TokenSpan_c): triples (mask, lengthCP, wordFlag) from `head`
  sv: WordVec = new WordVec();
  head: u32 = 0;
  n: i32 = 0;
  sStart: i32 = -1;
  sWords: i32 = 0;
  sQwords: i32 = 0;
  sCodes: i32 = 0;
  cur: i32 = 0;

  spanReset(): void {
    this.sv.len = 0; this.head = 0; this.n = 0;
    this.sStart = -1; this.sWords = 0; this.sQwords = 0; this.sCodes = 0;
  }

  spanAdd(word: i32, qword: bool, mask: u32, len: i32): void {
    const q = qword && word == 1;
    this.sv.ensure(3);
    const at = this.sv.len;
    this.sv.set(at, q ? mask : 0);
    this.sv.set(at + 1, <u32>len);
    this.sv.set(at + 2, <u32>word);
    this.sv.len += 3;
    this.n++;
    this.sCodes += len;
    this.sWords += word;
    if (q) this.sQwords++;
    if (this.sStart < 0) this.sStart = this.cur;
  }

  @inline sMask(i: i32): u32 { return this.sv.at((this.head + <u32>i) * 3); }
  @inline sLen(i: i32): i32 { return <i32>this.sv.at((this.head + <u32>i) * 3 + 1); }
  @inline sWord(i: i32): i32 { return <i32>this.sv.at((this.head + <u32>i) * 3 + 2); }

}
