// Candidate passages of one field (Manticore's PassageExtractor_c): a window grows over the token
// stream until the limits are reached, then slides word by word; each window holding keywords is
// weighed, cut to `around` words each side of its keywords, and kept when new or better.
// The TypeScript twin is src/highlight/snippet-extract.ts.

import { Context, log2, weightOf } from "./context";
import { CONTEXT_PENDING, fillPassageContext } from "./context-fill";
import * as F from "./format";
import { Recs } from "./store";
import { Window } from "./window";
import { WordVec } from "../memory/heap";

/** Stretches shorter than this are walked (the rebuild costs about a window's tokens). */
const SKIP_MIN: u32 = 24;

export class Extractor extends Window {
  // the passage being weighed (record 0)
  pass: Recs = new Recs();
  addWord: bool = false;
  changed: bool = true;
  thresh: i32 = 1;
  cpLimit: i32 = F.INT_MAX;
  allQwords: u32 = 0;
  limit: i32 = 0;
  limitWords: i32 = 0;
  docBytes: i32 = 0;
  field: i32 = 0;
  around: i32 = 5;
  forceAll: bool = false;
  useBoundaries: bool = false;
  spz: bool = false;
  weights: usize = 0;
  nTerms: u32 = 0;
  ctx: Context = new Context();
  /** Per field: where its token 0 lies in the stream run() walked (fillContext reads the tokens there). */
  bases: WordVec = new WordVec();

  setup(field: i32, limit: i32, limitWords: i32, limitSnippets: i32, docBytes: i32): void {
    this.field = field;
    this.limit = limit;
    this.limitWords = limitWords;
    this.docBytes = docBytes;
    let t = 0;
    if (limitSnippets > 0) t = limitSnippets;
    else if (limitWords > 0) t = limitWords / 2;
    else if (limit > 0) t = limit / 4;
    this.thresh = 1 << log2(<u32>t);
    this.cpLimit = limit ? limit : F.INT_MAX;
    this.allQwords = this.nTerms >= 32 ? 0xffffffff : (<u32>1 << this.nTerms) - 1;
    this.addWord = false;
    this.changed = true;
    this.cur = 0;
    this.spanReset();
    if (this.pass.n == 0) this.pass.add();
    for (let k: u32 = 0; k < F.PASSAGE_WORDS; k++) this.pass.set(0, k, 0);
  }

  @inline termWeight(k: u32): i32 {
    return k < this.nTerms ? load<i32>(this.weights + (<usize>k << 2)) : 0;
  }

  @inline wordsLimit(): i32 {
    return this.limitWords ? this.limitWords : 2 * this.around + this.sQwords;
  }

  /** Runs over tokens [first, first+count) of the stream at `tokens`. */
  run(tokens: usize, first: u32, count: u32): void {
    const f = <u32>this.field;
    if (f >= this.bases.len) {
      this.bases.ensure(f + 1 - this.bases.len);
      this.bases.len = f + 1;
    }
    this.bases.set(f, <u32>(tokens + <usize>first * F.TOKEN_WORDS * 4));
    let i: u32 = 0;
    // below `walk` a stretch was found too short to skip: walked
    let walk: u32 = 0;
    while (i < count) {
      if (i >= walk && this.addWord && !this.sQwords) {
        walk = this.skip(tokens, first, count, i);
        if (walk >= count) return;
        if (walk > i && this.cur == <i32>walk) i = walk;
      }
      const t = tokens + <usize>(first + i) * F.TOKEN_WORDS * 4;
      const flags = load<u32>(t, 4);
      if (flags & F.TOK_BREAK) this.onBoundary();
      if (flags & F.TOK_WORD) {
        this.onToken(load<i32>(t), (flags & F.TOK_HIT) != 0, load<u32>(t, 8));
        i++;
        continue;
      }
      let j = i;
      while (j < count) {
        const fl = load<u32>(tokens + <usize>(first + j) * F.TOKEN_WORDS * 4, 4);
        if ((fl & F.TOK_WORD) || (j > i && (fl & F.TOK_BREAK))) break;
        j++;
      }
      this.onGap(tokens, first + i, first + j);
      if (j == count) { this.shrinkHead(); this.weightAndSubmit(); }
      i = j;
    }
    if (!this.addWord) this.weightAndSubmit();
  }

  /**
   * Jumps over a stretch without matched words, boundaries or phrase-boundary gaps, from token `i`
   * to the next one that has any (returned). Sliding, the window holds no keyword there, so nothing
   * is weighed or submitted and it ends as the longest run of tokens up to the stretch's last word
   * that fits the limits (the head is only cut at words, the one word kept even when it alone does
   * not fit), then the gaps after that word: it is rebuilt as that instead of walked token by token.
   * Worth it on long texts with few matches, where the walk was most of the pick.
   */
  skip(tokens: usize, first: u32, count: u32, i: u32): u32 {
    // returns the stretch's end; the window was rebuilt when `cur` is there
    const STOP = F.TOK_HIT | F.TOK_BREAK | F.TOK_PHRASE_BOUNDARY;
    let j = i;
    let lastWord: i32 = -1;
    while (j < count) {
      const fl = load<u32>(tokens + <usize>(first + j) * F.TOKEN_WORDS * 4, 4);
      if (fl & STOP) break;
      if (fl & F.TOK_WORD) lastWord = <i32>j;
      j++;
    }
    // the rest of the field: nothing left to submit
    if (j >= count) return count;
    if (j - i < SKIP_MIN || lastWord < 0) return j;
    // the window's first token (tokens before it can never come back), then the longest fitting run to lastWord
    const from: i32 = this.n > 0 ? this.sStart : this.cur;
    const wordsMax = this.limitWords ? this.limitWords : 2 * this.around;
    let s = lastWord;
    let codes = load<i32>(tokens + <usize>(first + <u32>s) * F.TOKEN_WORDS * 4);
    let words = 1;
    while (s > from) {
      const t = tokens + <usize>(first + <u32>s - 1) * F.TOKEN_WORDS * 4;
      const c = codes + load<i32>(t);
      const w = words + ((load<u32>(t, 4) & F.TOK_WORD) ? 1 : 0);
      if (c > this.cpLimit || w > wordsMax) break;
      codes = c;
      words = w;
      s--;
    }
    this.spanReset();
    this.cur = s;
    for (let k = s; k < <i32>j; k++) {
      const t = tokens + <usize>(first + <u32>k) * F.TOKEN_WORDS * 4;
      this.spanAdd((load<u32>(t, 4) & F.TOK_WORD) ? 1 : 0, false, 0, load<i32>(t));
      this.cur++;
    }
    return j;
  }

  onToken(len: i32, q: bool, mask: u32): void {
    if (!this.addWord) {
      const ok = this.sCodes + len <= this.cpLimit && this.sWords <= this.wordsLimit();
      const all = <u32>this.pass.get(0, F.P_QWORDS) == this.allQwords;
      if ((this.forceAll && all && !ok) || (!this.forceAll && !ok)) {
        this.changed = true;
        this.weightAndSubmit();
        this.addWord = true;
      }
      this.spanAdd(1, q, mask, len);
      this.changed = this.changed || q;
      if (this.addWord) { this.shrinkHead(); this.weightAndSubmit(); }
    } else {
      this.spanAdd(1, q, mask, len);
      this.changed = this.changed || q;
      this.shrinkHead();
      this.weightAndSubmit();
    }
    this.cur++;
  }

  /** Gap pieces (AddSpaces); a phrase boundary piece submits the window and starts afresh. */
  onGap(tokens: usize, from: u32, to: u32): void {
    if (this.addWord) {
      for (let i = from; i < to; i++) {
        const t = tokens + <usize>i * F.TOKEN_WORDS * 4;
        this.spanAdd(0, false, 0, load<i32>(t));
        this.cur++;
        if (load<u32>(t, 4) & F.TOK_PHRASE_BOUNDARY) { this.weightAndSubmit(); this.spanReset(); this.addWord = false; }
      }
      return;
    }
    for (let i = from; i < to; i++) {
      const t = tokens + <usize>i * F.TOKEN_WORDS * 4;
      const len = load<i32>(t);
      const bnd = (load<u32>(t, 4) & F.TOK_PHRASE_BOUNDARY) != 0;
      let ok = this.sCodes + len <= this.cpLimit && this.sWords <= this.wordsLimit();
      if (this.forceAll && <u32>this.pass.get(0, F.P_QWORDS) != this.allQwords) ok = true;
      if ((bnd || !ok) && !this.addWord) {
        if (bnd) {
          this.spanAdd(0, false, 0, len);
          this.cur++;
          this.weightAndSubmit();
          this.spanReset();
          continue;
        }
        this.weightAndSubmit();
        this.addWord = true;
      }
      if (!bnd) { this.spanAdd(0, false, 0, len); this.cur++; }
    }
  }

  onBoundary(): void {
    if (this.addWord) this.changed = true;
    this.weightAndSubmit();
    this.addWord = false;
    this.changed = true;
    this.spanReset();
  }

  weightAndSubmit(): void {
    if (!this.sQwords) return;
    if (this.changed) { this.calcWeight(this.wordsLimit()); this.changed = false; } else this.updateGaps(this.wordsLimit());
    if (this.pass.get(0, F.P_QWORDS)) this.flush();
  }

  shrinkHead(): void {
    let k = 0;
    const max = this.n - 1;
    while (k < max && (this.sCodes > this.cpLimit || this.sWords > this.wordsLimit())) {
      if (this.sMask(k)) { this.sQwords--; this.changed = true; }
      this.sWords -= this.sWord(k);
      this.sCodes -= this.sLen(k);
      k++;
    }
    this.sStart += k;
    if (k >= this.n) this.spanReset();
    else this.dropHead(<u32>k);
  }

  /**
   * The gaps of a window whose keywords are as last weighed: the words before its first keyword and
   * after its last, from the window's keyword list (a walk of the window per token was a third of
   * the pick). The nearest keyword to an end gives the smallest gap.
   */
  updateGaps(maxWords: i32): void {
    const p = this.pass;
    let minGap = maxWords - 1;
    let before = this.sWords;
    let after = this.sWords;
    if (this.hasKeyword()) {
      before = this.sWordsBefore(this.firstKeyword());
      after = this.sWords - 1 - this.sWordsBefore(this.lastKeyword());
      minGap = min(minGap, min(before, after));
    }
    p.set(0, F.P_MINGAP, minGap);
    p.set(0, F.P_ABEFORE, before);
    p.set(0, F.P_AAFTER, after);
  }

  calcWeight(maxWords: i32): void {
    const p = this.pass;
    let last: u32 = 0;
    let lcs = 1;
    let maxLcs = 1;
    let qwords: u32 = 0;
    let minGap = maxWords - 1;
    let sLimit = F.INT_MAX;
    let eLimit = -F.INT_MAX;
    let before = 0;
    let after = 0;
    let count = 0;
    let w = -1;
    for (let i = 0; i < this.n; i++) {
      if (!this.sWord(i)) continue;
      w++;
      const m = this.sMask(i);
      qwords |= m;
      if (m) {
        const tok = this.sStart + i;
        sLimit = min(sLimit, tok);
        eLimit = max(eLimit, tok);
        count++;
      }
      last = m & (last << 1);
      if (last) { lcs++; maxLcs = max(lcs, maxLcs); } else { lcs = 1; last = m; }
      if (m) minGap = min(minGap, min(w, this.sWords - 1 - w));
      if (qwords == 0) before++;
      after = m ? 0 : after + 1;
    }
    let weight = 0;
    let uniq = 0;
    let k: u32 = 0;
    for (let q = qwords; q; q >>= 1, k++) {
      if (q & 1) { weight += this.termWeight(k); uniq++; }
    }
    p.set(0, F.P_LCS, maxLcs); p.set(0, F.P_QWORDS, <i32>qwords); p.set(0, F.P_MINGAP, minGap);
    p.set(0, F.P_SLIMIT, sLimit); p.set(0, F.P_ELIMIT, eLimit); p.set(0, F.P_ABEFORE, before);
    p.set(0, F.P_AAFTER, after); p.set(0, F.P_QCOUNT, count * 2); p.set(0, F.P_UNIQ, uniq);
    p.set(0, F.P_QWEIGHT, weight);
  }

  @inline gapRatio(r: Recs, x: u32): f32 {
    const pre = r.get(x, F.P_SLIMIT) - r.get(x, F.P_START) + 1;
    const post = r.get(x, F.P_START) + r.get(x, F.P_TOKENS) - r.get(x, F.P_ELIMIT) + 1;
    return <f32>max(pre, post) / <f32>min(pre, post);
  }

  /**
   * Cuts the pass record to `around` words each side. Only the kept passages need it: the weight and
   * the containment test do not read what it cuts (most windows weighed while sliding are dropped).
   */
  trimAround(): void {
    const p = this.pass;
    let b = 0;
    while (p.get(0, F.P_ABEFORE) > this.around) {
      p.bump(0, F.P_CODES, -this.sLen(b)); p.bump(0, F.P_ABEFORE, -this.sWord(b)); p.bump(0, F.P_START, 1);
      p.bump(0, F.P_TOKENS, -1); p.bump(0, F.P_WORDS, -this.sWord(b));
      b++;
    }
    let a = this.n - 1;
    while (p.get(0, F.P_AAFTER) > this.around) {
      p.bump(0, F.P_CODES, -this.sLen(a)); p.bump(0, F.P_AAFTER, -this.sWord(a));
      p.bump(0, F.P_TOKENS, -1); p.bump(0, F.P_WORDS, -this.sWord(a));
      a--;
    }
  }

  /** Keeps the window (cut to `around` words each side) when new or better than the last. */
  flush(): void {
    const p = this.pass;
    p.set(0, F.P_FIELD, this.field); p.set(0, F.P_START, this.sStart); p.set(0, F.P_TOKENS, this.n);
    p.set(0, F.P_CODES, this.sCodes); p.set(0, F.P_WORDS, this.sWords);
    const ctx = this.ctx;
    const ps = ctx.passages;
    const qw = <u32>p.get(0, F.P_QWORDS);
    const weight = weightOf(p, 0);
    const qword = p.get(0, F.P_QCOUNT) == 1 ? log2(qw) - 1 : -1;
    if (!ps.n) {
      this.trimAround();
      this.snapshot(ps.add());
      this.updateTop(qword, weight);
      return;
    }
    const last = ps.n - 1;
    const ps0 = p.get(0, F.P_SLIMIT);
    const pe0 = p.get(0, F.P_ELIMIT);
    const ls = ps.get(last, F.P_SLIMIT);
    const le = ps.get(last, F.P_ELIMIT);
    if ((ps0 <= ls && le <= pe0) || (ls <= ps0 && pe0 <= le)) {
      const wl = weightOf(ps, last);
      if (ps.get(last, F.P_UNIQ) > p.get(0, F.P_UNIQ) || wl > weight) return;
      this.trimAround();
      if (wl < weight || this.gapRatio(p, 0) < this.gapRatio(ps, last)) this.snapshot(last);
      return;
    }
    if (<i32>ps.n > this.thresh && !(qw & ~ctx.qwords)) {
      if (qword >= 0) {
        if (weight <= ctx.qwordWeights[qword]) return;
      } else if (weight <= (<u32>this.thresh < ctx.top.v.len ? ctx.top.get(<u32>this.thresh) : 0)) {
        return;
      }
    }
    this.trimAround();
    this.snapshot(ps.add());
    this.updateTop(qword, weight);
  }

  updateTop(qword: i32, weight: i32): void {
    const ctx = this.ctx;
    ctx.qwords |= <u32>this.pass.get(0, F.P_QWORDS);
    if (qword >= 0) ctx.qwordWeights[qword] = max(ctx.qwordWeights[qword], weight);
    ctx.top.push(weight);
    if ((<i32>ctx.top.v.len & (this.thresh - 1)) == 0) ctx.top.sortDesc();
  }

  /**
   * Copies the passage into context record `r`. Its context tokens (the ones trimming may drop) are
   * counted later, by fillContext for the passages still kept: a record is replaced often while the
   * window slides, and the tokens lie in the stream, where the window's came from.
   */
  snapshot(r: u32): void {
    const ps = this.ctx.passages;
    ps.copyFrom(r, this.pass, 0);
    ps.set(r, F.P_BLEN, 0);
    ps.set(r, F.P_ALEN, 0);
    const whole = (this.limit == 0 || this.limit >= this.docBytes) && !this.limitWords && !this.spz;
    if (whole || this.useBoundaries) return;
    ps.set(r, F.P_BOFF, this.sStart);
    ps.set(r, F.P_AOFF, CONTEXT_PENDING);
  }

  /** The context tokens of every kept passage still without them (context-fill.ts). */
  fillContext(): void {
    fillPassageContext(this.ctx, this.bases);
  }
}
