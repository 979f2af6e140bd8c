/**
 * Candidate passages of one field (Manticore's PassageExtractor_c): a window grows over the token
 * stream until the limits are reached, then slides word by word; each window holding keywords is
 * weighed, cut to `around` words each side of its keywords, and kept when new or better.
 */
import {
  emptyPassage, log2, passageWeight, type Passage, type PassageContext, type PassageLimits,
  type PassageSettings, type PassageStream,
} from './snippet-passages.js';

/** C's INT_MAX: "no limit". */
const INT_MAX = 0x7fffffff;

class Span {
  start = -1;
  words = 0;
  qwords = 0;
  codes = 0;
  head = 0;
  n = 0;
  mask: number[] = [];
  len: number[] = [];
  word: number[] = [];

  reset(): void {
    this.start = -1; this.words = 0; this.qwords = 0; this.codes = 0;
    this.head = 0; this.n = 0; this.mask.length = 0; this.len.length = 0; this.word.length = 0;
  }

  add(token: number, word: number, qword: boolean, mask: number, len: number): void {
    const q = qword && word === 1;
    this.mask.push(q ? mask : 0);
    this.len.push(len);
    this.word.push(word);
    this.n++;
    this.codes += len;
    this.words += word;
    this.qwords += q ? 1 : 0;
    if (this.start < 0) this.start = token;
  }

  at(i: number): number { return this.head + i; }
}

export class PassageExtractor {
  private addWord = false;
  private qwordsChanged = true;
  private readonly span = new Span();
  private pass = emptyPassage();
  private cur = 0;
  private readonly thresh: number;
  private readonly cpLimit: number;
  private readonly allQwords: number;

  constructor(
    private readonly s: PassageStream, private readonly field: number, private readonly lim: PassageLimits,
    private readonly set: PassageSettings, private readonly ctx: PassageContext,
    private readonly termWeights: number[],
  ) {
    let t = 0;
    if (lim.limitSnippets > 0) t = lim.limitSnippets;
    else if (lim.limitWords > 0) t = Math.trunc(lim.limitWords / 2);
    else if (lim.limit > 0) t = Math.trunc(lim.limit / 4);
    this.thresh = 1 << log2(t);
    this.cpLimit = lim.limit ? lim.limit : INT_MAX;
    this.allQwords = termWeights.length >= 32 ? 0xffffffff : ((1 << termWeights.length) - 1) >>> 0;
  }

  private spanWordsLimit(): number {
    return this.lim.limitWords ? this.lim.limitWords : 2 * this.set.around + this.span.qwords;
  }

  run(): void {
    const s = this.s;
    const n = s.len.length;
    let i = 0;
    while (i < n) {
      if (s.brk[i] === 1) this.onBoundary();
      if (s.word[i]) { this.onToken(i); i++; continue; }
      let j = i;
      while (j < n && !s.word[j] && (j === i || s.brk[j] !== 1)) j++;
      if (j === n) this.onTail(i, j); else this.onGap(i, j);
      i = j;
    }
    if (!this.addWord) this.weightAndSubmit();
  }

  private onToken(i: number): void {
    const s = this.s;
    const q = s.hit[i] === 1;
    const len = s.len[i];
    if (!this.addWord) {
      const ok = this.span.codes + len <= this.cpLimit && this.span.words <= this.spanWordsLimit();
      if ((this.set.forceAllWords && this.pass.qwords === this.allQwords && !ok) || (!this.set.forceAllWords && !ok)) {
        this.qwordsChanged = true;
        this.weightAndSubmit();
        this.addWord = true;
      }
      this.span.add(this.cur, 1, q, s.mask[i], len);
      this.qwordsChanged ||= q;
      if (this.addWord) { this.shrinkHead(); this.weightAndSubmit(); }
    } else {
      this.span.add(this.cur, 1, q, s.mask[i], len);
      this.qwordsChanged ||= q;
      this.shrinkHead();
      this.weightAndSubmit();
    }
    this.cur++;
  }

  /** Gap pieces (AddSpaces); a phrase boundary piece (brk 2) submits the window and starts afresh. */
  private onGap(from: number, to: number): void {
    const s = this.s;
    if (this.addWord) {
      for (let i = from; i < to; i++) {
        this.span.add(this.cur++, 0, false, 0, s.len[i]);
        if (s.brk[i] === 2) { this.weightAndSubmit(); this.span.reset(); this.addWord = false; }
      }
      return;
    }
    for (let i = from; i < to; i++) {
      const bnd = s.brk[i] === 2;
      let ok = this.span.codes + s.len[i] <= this.cpLimit && this.span.words <= this.spanWordsLimit();
      if (this.set.forceAllWords && this.pass.qwords !== this.allQwords) ok = true;
      if ((bnd || !ok) && !this.addWord) {
        if (bnd) {
          this.span.add(this.cur++, 0, false, 0, s.len[i]);
          this.weightAndSubmit();
          this.span.reset();
          continue;
        }
        this.weightAndSubmit();
        this.addWord = true;
      }
      // as Manticore: a boundary piece met after the window turned to sliding is not added
      if (!bnd) this.span.add(this.cur++, 0, false, 0, s.len[i]);
    }
  }

  private onTail(from: number, to: number): void {
    this.onGap(from, to);
    this.shrinkHead();
    this.weightAndSubmit();
  }

  /** A sentence / paragraph / zone boundary: submit what the window holds and start afresh. */
  private onBoundary(): void {
    if (this.addWord) this.qwordsChanged = true;
    this.weightAndSubmit();
    this.addWord = false;
    this.qwordsChanged = true;
    this.span.reset();
  }

  private weightAndSubmit(): void {
    if (!this.span.qwords) return;
    if (this.qwordsChanged) { this.calcWeight(this.spanWordsLimit()); this.qwordsChanged = false; } else this.updateGaps(this.spanWordsLimit());
    if (this.pass.qwords) this.flush();
  }

  private shrinkHead(): void {
    const sp = this.span;
    let k = 0;
    const max = sp.n - 1;
    while (k < max && (sp.codes > this.cpLimit || sp.words > this.spanWordsLimit())) {
      const at = sp.at(k);
      if (sp.mask[at]) { sp.qwords--; this.qwordsChanged = true; }
      sp.words -= sp.word[at];
      sp.codes -= sp.len[at];
      k++;
    }
    sp.start += k;
    if (k >= sp.n) sp.reset();
    else { sp.head += k; sp.n -= k; }
  }

  private updateGaps(maxWords: number): void {
    const p = this.pass;
    const sp = this.span;
    p.minGap = maxWords - 1;
    p.aroundBefore = 0;
    p.aroundAfter = 0;
    let q = 0;
    let w = -1;
    for (let i = 0; i < sp.n; i++) {
      const at = sp.at(i);
      if (!sp.word[at]) continue;
      w++;
      if (sp.mask[at]) p.minGap = Math.min(p.minGap, w, sp.words - 1 - w);
      q |= sp.mask[at];
      p.aroundBefore += q === 0 ? 1 : 0;
      p.aroundAfter = sp.mask[at] ? 0 : p.aroundAfter + 1;
    }
  }

  private calcWeight(maxWords: number): void {
    const p = this.pass;
    const sp = this.span;
    let last = 0;
    let lcs = 1;
    p.maxLcs = 1; p.qwords = 0; p.minGap = maxWords - 1; p.startLimit = INT_MAX; p.endLimit = -INT_MAX;
    p.aroundBefore = 0; p.aroundAfter = 0; p.qwordCount = 0; p.uniqQwords = 0; p.qwordsWeight = 0;
    let w = -1;
    for (let i = 0; i < sp.n; i++) {
      const at = sp.at(i);
      if (!sp.word[at]) continue;
      w++;
      const m = sp.mask[at];
      p.qwords = (p.qwords | m) >>> 0;
      if (m) {
        const tok = sp.start + i;
        p.startLimit = Math.min(p.startLimit, tok);
        p.endLimit = Math.max(p.endLimit, tok);
        p.qwordCount++;
      }
      last = (m & (last << 1)) >>> 0;
      if (last) { lcs++; p.maxLcs = Math.max(lcs, p.maxLcs); } else { lcs = 1; last = m; }
      if (m) p.minGap = Math.min(p.minGap, w, sp.words - 1 - w);
      p.aroundBefore += p.qwords === 0 ? 1 : 0;
      p.aroundAfter = m ? 0 : p.aroundAfter + 1;
    }
    for (let k = 0, q = p.qwords; q; q >>>= 1, k++) {
      if (q & 1) { p.qwordsWeight += this.termWeights[k] ?? 0; p.uniqQwords++; }
    }
    p.qwordCount *= 2;
  }

  /** Cuts the window to `around` words each side and keeps it when new or better than the last. */
  private flush(): void {
    const p = this.pass;
    const sp = this.span;
    p.field = this.field; p.start = sp.start; p.tokens = sp.n; p.codes = sp.codes; p.words = sp.words;
    let b = 0;
    while (p.aroundBefore > this.set.around) {
      const at = sp.at(b);
      p.codes -= sp.len[at]; p.aroundBefore -= sp.word[at]; p.start++; p.tokens--; p.words -= sp.word[at];
      b++;
    }
    let a = sp.n - 1;
    while (p.aroundAfter > this.set.around) {
      const at = sp.at(a);
      p.codes -= sp.len[at]; p.aroundAfter -= sp.word[at]; p.tokens--; p.words -= sp.word[at];
      a--;
    }
    const ctx = this.ctx;
    if (!ctx.passages.length) {
      ctx.passages.push(this.snapshot());
      this.updateTop(p.qwordCount === 1 ? log2(p.qwords) - 1 : -1, passageWeight(p));
      return;
    }
    const last = ctx.passages[ctx.passages.length - 1];
    if ((p.startLimit <= last.startLimit && last.endLimit <= p.endLimit) || (last.startLimit <= p.startLimit && p.endLimit <= last.endLimit)) {
      const gap = (x: Passage): number => {
        const pre = x.startLimit - x.start + 1;
        const post = x.start + x.tokens - x.endLimit + 1;
        return Math.fround(Math.max(pre, post) / Math.min(pre, post));
      };
      const wl = passageWeight(last);
      const wp = passageWeight(p);
      if (last.uniqQwords <= p.uniqQwords && (wl < wp || (wl === wp && gap(p) < gap(last)))) {
        ctx.passages[ctx.passages.length - 1] = this.snapshot();
      }
      return;
    }
    const weight = passageWeight(p);
    const qword = p.qwordCount === 1 ? log2(p.qwords) - 1 : -1;
    if (ctx.passages.length > this.thresh && !(p.qwords & ~ctx.qwords)) {
      if (qword >= 0) { if (weight <= ctx.qwordWeights[qword]) return; } else if (weight <= (ctx.topWeights[this.thresh] ?? 0)) return;
    }
    ctx.passages.push(this.snapshot());
    this.updateTop(qword, weight);
  }

  private updateTop(qword: number, weight: number): void {
    const ctx = this.ctx;
    ctx.qwords = (ctx.qwords | this.pass.qwords) >>> 0;
    if (qword >= 0) ctx.qwordWeights[qword] = Math.max(ctx.qwordWeights[qword], weight);
    ctx.topWeights.push(weight);
    if ((ctx.topWeights.length & (this.thresh - 1)) === 0) ctx.topWeights.sort((x, y) => y - x);
  }

  /** A copy of the current passage with the context tokens trimming may drop. */
  private snapshot(): Passage {
    const p: Passage = { ...this.pass, before: [], after: [] };
    const lim = this.lim;
    const whole = (lim.limit === 0 || lim.limit >= this.s.docBytes) && !lim.limitWords && !this.set.spz;
    if (whole || this.set.useBoundaries) return p;
    const sp = this.span;
    p.codesBetween = p.codes;
    p.wordsBetween = p.words;
    let nb = 0;
    for (let i = p.startLimit - sp.start - 1; i >= p.start - sp.start; i--) {
      const at = sp.at(i);
      p.codesBetween -= sp.len[at];
      p.wordsBetween -= sp.word[at];
      if (nb + sp.word[at] <= p.aroundBefore) { p.before.push([sp.len[at], sp.word[at]]); nb += sp.word[at]; } else break;
    }
    let na = 0;
    for (let i = p.endLimit - sp.start + 1; i < p.tokens; i++) {
      const at = sp.at(i);
      p.codesBetween -= sp.len[at];
      p.wordsBetween -= sp.word[at];
      if (na + sp.word[at] <= p.aroundAfter) { p.after.push([sp.len[at], sp.word[at]]); na += sp.word[at]; } else break;
    }
    return p;
  }
}
