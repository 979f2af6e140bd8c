/** A table's text pipeline: HTML strip, tokenize, fold, stem, stopwords -> terms at positions. */
import type { FieldTokens } from '../index/types.js';
import type { TableSettings } from '../schema/types.js';
import { Blender, expandBlended, parseBlendMode, type WalkToken } from './blend.js';
import { CODE_MASK, FLAG_BLEND, FLAG_IGNORE, type CharsetTable } from './charset-table.js';
import { Exceptions } from './exceptions.js';
import { HtmlStripper, type StrippedText } from './html-strip.js';
import { charsetTablesFor, stemmersFor } from './pipeline-parts.js';
import { QueryWords, type BlendParts } from './query-words.js';
import { markKind, type SpzMark } from './spz-marks.js';
import { Stopwords } from './stopwords.js';
import { TermDictionary } from './term-dictionary.js';
import { parseTextSettings, type TextSettings } from './text-settings.js';
import { Tokenizer } from './tokenizer.js';
import { Wordforms } from './wordforms.js';

export interface Token {
  /** The folded token, as CALL KEYWORDS shows it in `tokenized`. */
  text: string;
  /** Dictionary form after morphology; '' when the token is a stopword. */
  term: string;
  /** 1-based position in the field. */
  pos: number;
  /** UTF-16 offsets into the original text (before HTML stripping), for highlighting. */
  start: number;
  end: number;
}

/** One CALL KEYWORDS row. */
export interface KeywordRow {
  qpos: number;
  tokenized: string;
  normalized: string;
}

/** FieldTokens plus, when index_sp or index_zones is set, the sentence/paragraph/zone marks. */
export interface IndexedField extends FieldTokens {
  marks?: SpzMark[];
}

export interface TextPipeline {
  readonly settings: TextSettings;
  /** A field's tokens, stopwords included (term ''), overshort ones left out. */
  tokenize(text: string): Token[];
  /**
   * tokenize() plus the SPZ marks (empty unless index_sp / index_zones), for snippet boundaries.
   * Tokens never overlap: of a blended token only its first variant, over its whole text, is given.
   */
  analyze(text: string): { tokens: Token[]; marks: SpzMark[] };
  /**
   * What the index stores: terms at positions; stopwords, overshort tokens and marks only take
   * positions. `length` is the last hit's position (a trailing SPZ mark counts, as in Manticore).
   */
  indexField(text: string): IndexedField;
  /** A plain query word -> its dictionary terms (`foo_bar` -> foo, bar); stopwords are left out. */
  normalizeWord(word: string): string[];
  /** CALL KEYWORDS: query-mode tokens with their positions; stopwords take a qpos but give no row. */
  keywords(text: string): KeywordRow[];
  /** True when the table's charset makes this codepoint part of words (for the query lexer). */
  isWordChar(cp: number): boolean;
  /** Query lexer hook: where an exception starting at `pos` of raw query text ends, or -1. */
  exceptionAt(text: string, pos: number): number;
  /** Query lexer hook: how many typed words, from the first, make one multi-word wordform (0: none). */
  multiWordSpan(words: readonly string[]): number;
  /** Longest multi-word wordform source, in words (0: none). */
  readonly maxMultiWords: number;
  /** Query lexer hook: query positions a typed word takes beyond its own (a blended token's parts). */
  extraPositions(word: string): number;
  /** Query lexer hook: a blend_chars character (blend wins over an operator inside a word). */
  isBlendChar(cp: number): boolean;
}

export interface PipelineOptions {
  /** Where bundled stopword lists live (`<shareDir>/stopwords/<name>`), like Manticore's share dir. */
  shareDir?: string;
}

/** Builds the pipeline for a table; invalid settings throw SearchError with Manticore's texts. */
export function createTextPipeline(settings: TableSettings, opts: PipelineOptions = {}): TextPipeline {
  const ts = parseTextSettings(settings);
  const tables = charsetTablesFor(ts);
  const stemmers = stemmersFor(ts);
  const plain = new Tokenizer(tables.base, { minWordLen: ts.minWordLen, queryMode: false });
  const tokenizeLine = (line: string): string[] => {
    const out: string[] = [];
    plain.reset(line);
    while (plain.next()) out.push(plain.text);
    return out;
  };
  const bare = new TermDictionary(stemmers, Stopwords.NONE, ts);
  const stopwords = Stopwords.fromSetting(ts.stopwords, {
    shareDir: opts.shareDir,
    tokenize: tokenizeLine,
    normalize: (token) => (ts.stopwordsUnstemmed ? token : bare.stem(token)),
  });
  const stripper = ts.htmlStrip
    ? new HtmlStripper({
      indexAttrs: ts.htmlIndexAttrs, removeElements: ts.htmlRemoveElements, paragraphs: ts.indexSp, zones: ts.indexZones,
    })
    : null;
  const index = new Tokenizer(tables.index, {
    minWordLen: ts.minWordLen, queryMode: false, sentences: ts.indexSp, zones: ts.indexZones !== '',
  });
  const query = new Tokenizer(tables.query, { minWordLen: ts.minWordLen, queryMode: true });
  const wordforms = Wordforms.fromSetting(ts.wordforms, tokenizeLine);
  const dict = new TermDictionary(stemmers, stopwords, ts, wordforms);
  const exceptions = Exceptions.fromSetting(ts.exceptions);
  const blendMode = parseBlendMode(ts.blendMode);
  const blend = tables.parts
    ? { blender: new Blender(tables.base, blendMode), parts: new Tokenizer(tables.parts, { minWordLen: ts.minWordLen, queryMode: false }) }
    : null;
  return new Pipeline(ts, index, query, dict, stripper, tables.base, exceptions, wordforms, blend);
}



/** A word's folded text and offsets: the tokenizer's current token or an exception match. */
interface WordSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** What the walk reads of a token: the tokenizer itself, or a copy taken for look-ahead. */
type TokenInfo = WalkToken;

/** Position bookkeeping of one walk, carried across the segments between exception matches. */
interface WalkState {
  pos: number;
  step: number;
  last: number;
}

/** What a walk over a field reports: words (term '' for stopwords) and marks, at their positions. */
interface WalkVisitor {
  /** `w`'s offsets are relative to the walked segment, which starts at `offset` in the field. */
  word(term: string, pos: number, w: WordSpan, offset: number): void;
  mark?(mark: SpzMark): void;
}

class Pipeline implements TextPipeline {
  constructor(
    readonly settings: TextSettings,
    private readonly indexTok: Tokenizer,
    private readonly queryTok: Tokenizer,
    private readonly dict: TermDictionary,
    private readonly stripper: HtmlStripper | null,
    private readonly charset: CharsetTable,
    private readonly exceptions: Exceptions,
    private readonly wordforms: Wordforms,
    private readonly blend: BlendParts | null,
  ) {
    this.queryWords = new QueryWords(queryTok, dict, wordforms, exceptions, this.wordChar, blend);
  }

  private readonly queryWords: QueryWords;

  private readonly wordChar = (cp: number): boolean => this.isWordChar(cp);

  isWordChar(cp: number): boolean {
    const e = this.charset.lookup(cp);
    return (e & CODE_MASK) !== 0 || (e & FLAG_IGNORE) !== 0;
  }

  exceptionAt(text: string, pos: number): number {
    return this.exceptions.size === 0 ? -1 : this.exceptions.queryMatchAt(text, pos, this.wordChar);
  }

  get maxMultiWords(): number {
    return this.wordforms.maxMultiWords;
  }

  multiWordSpan(words: readonly string[]): number {
    return this.wordforms.spanOf(words, (w) => {
      const out: string[] = [];
      this.queryTok.reset(w);
      while (this.queryTok.next()) if (!this.queryTok.special) out.push(this.queryTok.text);
      return out;
    });
  }

  /**
   * Runs the index tokenizer over a (stripped) field: the position advances by the previous
   * token's step plus skipped overshort tokens, plus phrase_boundary_step after a boundary
   * (Manticore's BuildRegularHits). Returns the position of the last hit (an indexed term or an
   * SPZ mark, which Manticore also stores as a hit): the field end that `word$` matches.
   * Exception matches are cut out of the text and stand as one word each at their place.
   */
  private walk(text: string, v: WalkVisitor): number {
    const st: WalkState = { pos: 0, step: 1, last: 0 };
    let from = 0;
    for (const m of this.exceptions.find(text, this.wordChar)) {
      this.walkSegment(text.slice(from, m.start), from, st, v);
      st.pos += st.step;
      this.visitWord(this.dict.term(m.to), { text: m.to, start: m.start, end: m.end }, 0, st, v);
      from = m.end;
    }
    this.walkSegment(from === 0 ? text : text.slice(from), from, st, v);
    return st.last;
  }

  private walkSegment(text: string, offset: number, st: WalkState, v: WalkVisitor): void {
    const tok = this.indexTok;
    tok.reset(text);
    if (this.wordforms.hasMulti || this.blend) {
      this.walkTokens(this.collect(text), offset, st, v);
      return;
    }
    while (tok.next()) {
      if (this.advance(tok, offset, st, v)) this.visitWord(this.dict.termOf(tok), tok, offset, st, v);
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
   * blended token's variants keep the position for the next form or part (BuildRegularHits).
   */
  private visitWord(term: string, w: WordSpan, offset: number, st: WalkState, v: WalkVisitor, blend?: 'variant' | 'part'): void {
    v.word(term, st.pos, w, offset);
    if (term !== '') {
      st.step = blend === 'variant' ? 0 : 1;
      st.last = st.pos;
    } else {
      st.step = blend === 'variant' ? 0 : blend === 'part' ? 1 : this.settings.stopwordStep;
    }
  }

  private strip(text: string): StrippedText {
    return this.stripper ? this.stripper.strip(text) : { text, starts: null, ends: null };
  }

  analyze(text: string): { tokens: Token[]; marks: SpzMark[] } {
    const s = this.strip(text);
    const origin = (from: number, to: number): [number, number] =>
      (s.starts && s.ends ? [s.starts[from], s.ends[to - 1]] : [from, to]);
    const tokens: Token[] = [];
    const marks: SpzMark[] = [];
    let covered = 0;
    this.walk(s.text, {
      word: (term, pos, w, offset) => {
        // a blended token's further variants and its parts lie inside its first variant: the
        // highlighter gets one token per stretch of text (the query keyword is that first variant)
        if (w.start + offset < covered) return;
        covered = w.end + offset;
        const [start, end] = origin(w.start + offset, w.end + offset);
        tokens.push({ text: w.text, term, pos, start, end });
      },
      mark: (m) => {
        [m.start, m.end] = origin(m.start, m.end);
        marks.push(m);
      },
    });
    return { tokens, marks };
  }

  tokenize(text: string): Token[] {
    return this.analyze(text).tokens;
  }

  indexField(text: string): IndexedField {
    const terms: string[] = [];
    const positions: number[] = [];
    const marks: SpzMark[] = [];
    const length = this.walk(this.strip(text).text, {
      word: (term, pos) => {
        if (term === '') return;
        terms.push(term);
        positions.push(pos);
      },
      mark: (m) => marks.push(m),
    });
    const spz = this.settings.indexSp || this.settings.indexZones !== '';
    return spz ? { terms, positions, length, marks } : { terms, positions, length };
  }

  normalizeWord(word: string): string[] {
    const out: string[] = [];
    this.queryWords.each(word, (_w, term) => { if (term !== '') out.push(term); }, false);
    return out;
  }

  keywords(text: string): KeywordRow[] {
    const rows: KeywordRow[] = [];
    let qpos = 1;
    this.queryWords.each(text, (w, term, stay) => {
      if (term !== '') rows.push({ qpos, tokenized: w, normalized: term });
      if (!stay) qpos++;
    }, true);
    return rows;
  }

  extraPositions(word: string): number {
    return this.queryWords.extraPositions(word);
  }

  isBlendChar(cp: number): boolean {
    return (this.charset.lookup(cp) & FLAG_BLEND) !== 0;
  }
}
