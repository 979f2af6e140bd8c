// Growable stores of the snippet picker: passage records (PASSAGE_WORDS i32 each) and the pool of
// context tokens (lengthCP, wordFlag pairs) that trimming may drop.

import { WordVec } from "../memory/heap";
import { PASSAGE_WORDS } from "./format";

export class Recs {
  v: WordVec = new WordVec();
  n: u32 = 0;

  clear(): void {
    this.n = 0;
    this.v.len = 0;
  }

  add(): u32 {
    this.v.ensure(PASSAGE_WORDS);
    const r = this.n++;
    const base = r * PASSAGE_WORDS;
    for (let k: u32 = 0; k < PASSAGE_WORDS; k++) this.v.set(base + k, 0);
    this.v.len += PASSAGE_WORDS;
    return r;
  }

  @inline get(r: u32, k: u32): i32 {
    return <i32>this.v.at(r * PASSAGE_WORDS + k);
  }

  @inline set(r: u32, k: u32, val: i32): void {
    this.v.set(r * PASSAGE_WORDS + k, <u32>val);
  }

  @inline bump(r: u32, k: u32, d: i32): void {
    this.set(r, k, this.get(r, k) + d);
  }

  /** Copies record `s` of `src` over record `r` of this store. */
  copyFrom(r: u32, src: Recs, s: u32): void {
    for (let k: u32 = 0; k < PASSAGE_WORDS; k++) this.set(r, k, src.get(s, k));
  }
}

/** Pairs (lengthCP, wordFlag), appended only; passages keep an offset and a count into it. */
export class Pool {
  v: WordVec = new WordVec();

  clear(): void {
    this.v.len = 0;
  }

  @inline size(): u32 {
    return this.v.len >> 1;
  }

  push(len: i32, word: i32): void {
    this.v.ensure(2);
    this.v.set(this.v.len, <u32>len);
    this.v.set(this.v.len + 1, <u32>word);
    this.v.len += 2;
  }

  @inline len(i: u32): i32 {
    return <i32>this.v.at(i << 1);
  }

  @inline word(i: u32): i32 {
    return <i32>this.v.at((i << 1) + 1);
  }
}

/** A growable i32 list (top passage weights). */
export class IntList {
  v: WordVec = new WordVec();

  clear(): void {
    this.v.len = 0;
  }

  push(x: i32): void {
    this.v.ensure(1);
    this.v.set(this.v.len++, <u32>x);
  }

  @inline get(i: u32): i32 {
    return <i32>this.v.at(i);
  }

  /** Descending sort (shell sort: no allocation, fine for the counts seen here). */
  sortDesc(): void {
    const n = this.v.len;
    let gap = n >> 1;
    while (gap > 0) {
      for (let i = gap; i < n; i++) {
        const x = this.get(i);
        let j = i;
        while (j >= gap && this.get(j - gap) < x) {
          this.v.set(j, this.v.at(j - gap));
          j -= gap;
        }
        this.v.set(j, <u32>x);
      }
      gap >>= 1;
    }
  }
}
