/** The index walk over a field: tokens to terms at positions (Manticore's BuildRegularHits). */
import { expandBlended, type WalkToken } from './blend.js';
import type { Exceptions } from './exceptions.js';
import { SCAN_RECORD_WORDS, type FieldScanner } from './field-scanner.js';
import type { BlendParts } from './query-words.js';
import { markKind, type SpzMark } from './spz-marks.js';
import type { TermDictionary } from './term-dictionary.js';
import type { TextSettings } from './text-settings.js';
import type { Tokenizer } from './tokenizer.js';
import type { Wordforms } from './wordforms.js';

/** A word's folded text and offsets: the tokenizer's current token or an exception match. */
export interface WordSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** A scanned token as a WordSpan; its text is read only by a visitor that wants it (analyze, not indexField). */
class ScannedSpan implements WordSpan {
  id = 0;
  start = 0;
  end = 0;
  constructor(private readonly texts: readonly string[]) {}
  get text(): string { return this.texts[this.id]; }
}

/** What the walk reads of a token: the tokenizer itself, or a copy taken for look-ahead. */
type TokenInfo = WalkToken;

/** Position bookkeeping of one walk, carried across the segments between exception matches. */
interface WalkState {
  pos: number;
  step: number;
  last: number;
  /**
   * Position of the blended token whose forms and parts the last hits are, or -1 (Manticore's
   * iBlendedHitsStart): a blended form's hit sets it, a part's keeps it, a plain word's clears it, and a
   * stopword or an SPZ mark leaves it as it was.
   */
  blend: number;
}

/** What a walk over a field reports: words (term '' for stopwords) and marks, at their positions. */
export interface WalkVisitor {
  /** `w`'s offsets are relative to the walked segment, which starts at `offset` in the field. */
  word(term: string, pos: number, w: WordSpan, offset: number): void;
  mark?(mark: SpzMark): void;
}

/** Walks fields with one table's index tokenizer, dictionary, exceptions, wordforms and blending. */
export class FieldWalker {
  constructor(
    private readonly settings: TextSettings,
    private readonly indexTok: Tokenizer,
    private readonly dict: TermDictionary,
    private readonly exceptions: Exceptions,
    private readonly wordforms: Wordforms,
    private readonly blend: BlendParts | null,
    private readonly wordChar: (cp: number) => boolean,
    /** The whole-field scanner for the plain path (no blend characters, no SPZ specials), if any. */
    private readonly scanner: FieldScanner | null = null,
  ) {}

  /** Terms by scanner token id (null: not looked up yet), for the scanner's current id generation. */
  private scanTerms: (string | null)[] = [];
  private scanGeneration = -1;

  /**
   * After walk(): the position of the blended token the field ends in (its forms and parts were the
   * last words indexed), or -1. The field's end hits start there (FieldTokens.blendEnd).
   */
  lastBlend = -1;

  /** Forgets the scanner-id memo when the scanner renumbered its ids. */
  private sameGeneration(generation: number): void {
    if (generation === this.scanGeneration) return;
    this.scanGeneration = generation;
    this.scanTerms = [];
  }

  /**
   * Runs the index tokenizer over a (stripped) field: the position advances by the previous
   * token's step plus skipped overshort tokens, plus phrase_boundary_step after a boundary
   * (Manticore's BuildRegularHits). Returns the position of the last hit (an indexed term or an
   * SPZ mark, which Manticore also stores as a hit): the field end that `word$` matches.
   * Exception matches are cut out of the text and stand as one word each at their place.
   */
  walk(text: string, v: WalkVisitor): number {
    const st: WalkState = { pos: 0, step: 1, last: 0, blend: -1 };
    let from = 0;
    for (const m of this.exceptions.find(text, this.wordChar)) {
      this.walkSegment(text.slice(from, m.start), from, st, v);
      st.pos += st.step;
      this.visitWord(this.dict.term(m.to), { text: m.to, start: m.start, end: m.end }, 0, st, v);
      from = m.end;
    }
    this.walkSegment(from === 0 ? text : text.slice(from), from, st, v);
    this.lastBlend = st.blend;
    return st.last;
  }

  private walkSegment(text: string, offset: number, st: WalkState, v: WalkVisitor): void {
    const tok = this.indexTok;
    tok.reset(text);
    if (this.wordforms.hasMulti) {
      this.walkTokens(this.collect(text), offset, st, v);
      return;
    }
    if (this.blend) {
      this.walkBlended(text, offset, st, v);
      return;
    }
    if (this.scanner && this.walkScanned(text, offset, st, v)) return;
    while (tok.next()) {
      if (this.advance(tok, offset, st, v)) this.visitWord(this.termOfToken(tok), tok, offset, st, v);
    }
  }

  /**
   * The plain path over the scanner's token records: the same positions as advance() + visitWord()
   * give the tokenizer's tokens, one dictionary look-up per distinct token. False (nothing visited)
   * when the scanner does not take the text.
   */
  private walkScanned(text: string, offset: number, st: WalkState, v: WalkVisitor): boolean {
    const scan = this.scanner!.scan(text);
    if (!scan) return false;
    this.sameGeneration(scan.generation);
    const { records, texts } = scan;
    const terms = this.scanTerms;
    const { overshortStep, phraseBoundaryStep, stopwordStep } = this.settings;
    const span = new ScannedSpan(texts);
    for (let k = 0; k < scan.count * SCAN_RECORD_WORDS; k += SCAN_RECORD_WORDS) {
      const extra = records[k + 3];
      st.pos += Math.max(st.step + (extra >> 1) * overshortStep, 0);
      if ((extra & 1) !== 0) st.pos += phraseBoundaryStep;
      const id = records[k + 2];
      while (terms.length <= id) terms.push(null);
      let term = terms[id];
      if (term === null) term = terms[id] = this.dict.term(texts[id]);
      span.id = id;
      span.start = records[k];
      span.end = records[k + 1];
      v.word(term, st.pos, span, offset);
      if (term !== '') {
        st.step = 1;
        st.last = st.pos;
      } else {
        st.step = stopwordStep;
      }
    }
    return true;
  }

  /** The token's term; its text is set to the dictionary's copy of it (no second string when read). */
  private termOfToken(tok: Tokenizer): string {
    const term = this.dict.termOf(tok);
    tok.text = this.dict.lastToken;
    return term;
  }

  /**
   * walkSegment with blend_chars and no multi-word forms: tokens without blend characters take
   * the plain path; a token with some is expanded (a pure-blend one skipped with skip_pure passes
   * its overshort count and boundary on, as collect() does).
   */
  private walkBlended(text: string, offset: number, st: WalkState, v: WalkVisitor): void {
    const tok = this.indexTok;
    const { blender, parts } = this.blend!;
    let carry: { overshort: number; boundary: boolean } | null = null;
    while (tok.next()) {
      const plain = tok.special || !blender.blendsAny(tok.buf, tok.textLen);
      if (plain && !carry) {
        if (this.advance(tok, offset, st, v)) this.visitWord(this.termOfToken(tok), tok, offset, st, v);
        continue;
      }
      const t: TokenInfo = {
        text: tok.text, start: tok.start, end: tok.end, special: tok.special, zone: tok.zone,
        overshort: tok.overshort + (carry?.overshort ?? 0), boundary: tok.boundary || (carry?.boundary ?? false),
      };
      carry = null;
      const expanded = plain ? [t] : expandBlended(blender, t, text, parts);
      if (expanded.length === 0) carry = { overshort: t.overshort, boundary: t.boundary };
      for (const x of expanded) if (this.advance(x, offset, st, v)) this.visitWord(this.dict.term(x.text), x, offset, st, v, x.blend);
    }
  }

  /**
   * The index tokenizer's tokens of `text` (already reset), blended ones expanded into their
   * variants and parts; a token skipped as pure blend passes its overshort count and boundary on.
   */
  private collect(text: string): TokenInfo[] {
    const tok = this.indexTok;
    const toks: TokenInfo[] = [];
    let carry = 0;
    let carryBoundary = false;
    while (tok.next()) {
      const t: TokenInfo = {
        text: tok.text, start: tok.start, end: tok.end, special: tok.special,
        overshort: tok.overshort + carry, boundary: tok.boundary || carryBoundary, zone: tok.zone,
      };
      carry = 0;
      carryBoundary = false;
      if (!this.blend || t.special) {
        toks.push(t);
        continue;
      }
      const expanded = expandBlended(this.blend.blender, t, text, this.blend.parts);
      if (expanded.length === 0) [carry, carryBoundary] = [t.overshort, t.boundary];
      toks.push(...expanded);
    }
    return toks;
  }

  /** walkSegment over collected tokens, so a multi-word wordform can look ahead. */
  private walkTokens(toks: TokenInfo[], offset: number, st: WalkState, v: WalkVisitor): void {
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i];
      if (!this.advance(t, offset, st, v)) continue;
      const m = this.wordforms.hasMulti ? this.wordforms.matchMulti(toks, i) : null;
      if (!m) {
        this.visitWord(this.dict.term(t.text), t, offset, st, v, t.blend);
        continue;
      }
      const end = toks[i + m.words.length - 1].end;
      this.visitWord(this.dict.formTerm(m.dst), { text: m.dst, start: t.start, end }, offset, st, v);
      i += m.words.length - 1;
    }
  }

  /** Moves the position for a token and reports an SPZ mark; true when the token is a word. */
  private advance(t: TokenInfo, offset: number, st: WalkState, v: WalkVisitor): boolean {
    const ts = this.settings;
    st.pos += Math.max(st.step + t.overshort * ts.overshortStep, 0);
    if (t.boundary) st.pos += ts.phraseBoundaryStep;
    if (!t.special) return true;
    const kind = markKind(t.text.charCodeAt(0));
    if (kind) {
      v.mark?.({ kind, pos: st.pos, zone: t.zone, start: t.start + offset, end: t.end + offset });
      st.last = st.pos;
    }
    st.step = 1;
    return false;
  }

  /**
   * Reports a word; the next token steps 1 from it, a stopword's next token stopword_step, and a
   * blended token's variants keep the position for the next form or part (BuildRegularHits). An
   * indexed word also sets where the blended token the field may end in starts (WalkState.blend).
   */
  private visitWord(term: string, w: WordSpan, offset: number, st: WalkState, v: WalkVisitor, blend?: 'variant' | 'part'): void {
    v.word(term, st.pos, w, offset);
    if (term !== '') {
      st.step = blend === 'variant' ? 0 : 1;
      st.last = st.pos;
      st.blend = blend === 'variant' ? st.pos : blend === 'part' ? st.blend : -1;
    } else {
      st.step = blend === 'variant' ? 0 : blend === 'part' ? 1 : this.settings.stopwordStep;
    }
  }
}
