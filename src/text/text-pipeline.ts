/** A table's text pipeline: HTML strip, tokenize, fold, stem, stopwords -> terms at positions. */
import type { FieldTokens } from '../index/types.js';
import type { TableSettings } from '../schema/types.js';
import type { BatchSink } from './batch-sink.js';
import { Blender, parseBlendMode, TRIM_NONE, type WalkToken } from './blend.js';
import { CODE_MASK, FLAG_BLEND, FLAG_IGNORE, type CharsetTable } from './charset-table.js';
import { Exceptions } from './exceptions.js';
import { fieldScannerFor, type FieldScanner, type FieldsScan, type StreamScanner } from './field-scanner.js';
import { FieldWalker } from './field-walk.js';
import { FieldPacker } from './field-pack.js';
import { HtmlStripper, type StrippedText } from './html-strip.js';
import { PackedWriter } from './packed-terms.js';
import { charsetTablesFor, stemmersFor, stemsKeepFirstLetter } from './pipeline-parts.js';
import { QueryWords, type BlendParts } from './query-words.js';
import type { SpzMark } from './spz-marks.js';
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
  /**
   * analyze() only, for a blended token: its further variants (at its position) and its parts (at
   * theirs), which the index also holds and the highlighter looks up; `part` tells them apart.
   */
  inner?: Token[];
  /** Set on an inner token that is a blended token's part (not a variant). */
  part?: boolean;
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
  /**
   * indexField() for a bulk load's batch: the terms written into `sink` as its ids (FieldPacker.packBatch),
   * returning the field's length; null (nothing written) where indexField() would not pack the field.
   */
  indexFieldInto?(text: string, sink: BatchSink): number | null;
  /**
   * indexFieldInto() of fields scanned together: the scanner that scans a batch's fields so (null:
   * none, field by field), and one field of its scan (`count` records from `from`) into `sink`.
   */
  fieldsScanner?(): FieldScanner | null;
  indexScannedInto?(scan: FieldsScan, from: number, count: number, sink: BatchSink): number;
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
  /** Query lexer hook: query positions a typed word takes beyond its own (blended parts; -1: skip_pure drops it). */
  extraPositions(word: string): number;
  /** Query lexer hook: a blend_chars character (blend wins over an operator inside a word). */
  isBlendChar(cp: number): boolean;
  /**
   * The core's scanner with the dictionary, when analyze() of text without HTML takes its plain path
   * (no exceptions, multi-word wordforms or blend characters): highlighting streams fields through it.
   */
  streamScanner?(): PlainStreamScanner | null;
}

/** What a highlight needs to stream fields the way analyze() tokenizes them (see TextPipeline.streamScanner). */
export interface PlainStreamScanner {
  scanner: StreamScanner;
  /** The dictionary term of a folded token ('' for a stopword), and the dictionary's identity. */
  term(folded: string): string;
  dictKey: object;
  /**
   * Letters a-z (bit i: a + i) whose tokens a highlight must name whatever the query (they may be
   * stopwords), when every term keeps its token's first letter; null when a term may start otherwise.
   */
  namedLetters: number | null;
  /** The folding table the scanner reads (highlighting's windowed scans find keywords' first letters through it). */
  charset: CharsetTable;
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
  }, ts.stopwordsList);
  const stripper = ts.htmlStrip
    ? new HtmlStripper({
      indexAttrs: ts.htmlIndexAttrs, removeElements: ts.htmlRemoveElements, paragraphs: ts.indexSp, zones: ts.indexZones,
    })
    : null;
  const index = new Tokenizer(tables.index, {
    minWordLen: ts.minWordLen, queryMode: false, sentences: ts.indexSp, zones: ts.indexZones !== '',
  });
  const query = new Tokenizer(tables.query, { minWordLen: ts.minWordLen, queryMode: true });
  const wordforms = Wordforms.fromSetting(ts.wordforms, tokenizeLine, ts.wordformsList);
  const dict = new TermDictionary(stemmers, stopwords, ts, wordforms);
  const exceptions = Exceptions.fromSetting(ts.exceptions, ts.exceptionsList);
  const blendMode = parseBlendMode(ts.blendMode);
  const parts = tables.parts ? new Tokenizer(tables.parts, { minWordLen: ts.minWordLen, queryMode: false }) : null;
  // query-mode tokenizers index only the whole blended token (Manticore's query clones reset the
  // variants to trim_none and keep skip_pure)
  const blend = parts && {
    index: { blender: new Blender(tables.base, blendMode), parts },
    query: { blender: new Blender(tables.base, { variants: TRIM_NONE, skipPure: blendMode.skipPure }), parts },
  };
  // the whole-field scanner takes the plain index path: no SPZ specials, no blend characters
  const scanner = !blend && tables.index === tables.base ? fieldScannerFor(tables.index, ts.minWordLen) : null;
  return new Pipeline(ts, index, query, dict, stripper, tables.base, exceptions, wordforms, blend, scanner);
}

class Pipeline implements TextPipeline {
  constructor(
    readonly settings: TextSettings,
    indexTok: Tokenizer,
    private readonly queryTok: Tokenizer,
    dict: TermDictionary,
    private readonly stripper: HtmlStripper | null,
    private readonly charset: CharsetTable,
    private readonly exceptions: Exceptions,
    private readonly wordforms: Wordforms,
    blend: { index: BlendParts; query: BlendParts } | null,
    scanner: FieldScanner | null,
  ) {
    this.queryWords = new QueryWords(queryTok, dict, wordforms, exceptions, this.wordChar, blend?.query ?? null);
    this.walker = new FieldWalker(settings, indexTok, dict, exceptions, wordforms, blend?.index ?? null, this.wordChar, scanner);
    this.fieldPacker = new FieldPacker(settings, dict, exceptions.size !== 0 || wordforms.hasMulti || blend ? null : scanner);
    if (scanner && 'stream' in scanner && !blend && exceptions.size === 0 && !wordforms.hasMulti) {
      this.plainStream = {
        scanner: scanner as StreamScanner, term: (w) => dict.termUncached(w), dictKey: dict,
        namedLetters: dict.namedLetters(stemsKeepFirstLetter(settings)),
        charset,
      };
    }
  }

  private readonly queryWords: QueryWords;
  private readonly walker: FieldWalker;
  private readonly fieldPacker: FieldPacker;
  private plainStream: PlainStreamScanner | null = null;

  streamScanner(): PlainStreamScanner | null {
    return this.plainStream;
  }

  /** Where indexField's packed fields go: chunks shared by the fields of many documents. */
  private readonly packer = new PackedWriter();

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

  private strip(text: string): StrippedText {
    return this.stripper ? this.stripper.strip(text) : { text, starts: null, ends: null };
  }

  analyze(text: string): { tokens: Token[]; marks: SpzMark[] } {
    const s = this.strip(text);
    // stripped offsets map back to the original text (no pair allocated per token)
    const starts = s.starts && s.ends ? s.starts : null;
    const ends = s.ends;
    const tokens: Token[] = [];
    const marks: SpzMark[] = [];
    let covered = 0;
    this.walker.walk(s.text, {
      word: (term, pos, w, offset) => {
        // a blended token's further variants and its parts lie inside its first variant: the
        // highlighter gets one token per stretch of text (the query keyword is that first variant),
        // the others ride along on it as `inner`
        const from = w.start + offset;
        const to = w.end + offset;
        const tok: Token = starts
          ? { text: w.text, term, pos, start: starts[from], end: ends![to - 1] }
          : { text: w.text, term, pos, start: from, end: to };
        if (from < covered && tokens.length) {
          const outer = tokens[tokens.length - 1];
          if ((w as WalkToken).blend === 'part') tok.part = true;
          (outer.inner ??= []).push(tok);
          return;
        }
        covered = to;
        tokens.push(tok);
      },
      mark: (m) => {
        if (starts) { m.start = starts[m.start]; m.end = ends![m.end - 1]; }
        marks.push(m);
      },
    });
    return { tokens, marks };
  }

  tokenize(text: string): Token[] {
    return this.analyze(text).tokens;
  }

  indexField(text: string): IndexedField {
    const stripped = this.strip(text).text;
    const packed = this.fieldPacker.pack(stripped, this.packer);
    if (packed) return packed;
    const terms: string[] = [];
    const positions: number[] = [];
    const marks: SpzMark[] = [];
    const length = this.walker.walk(stripped, {
      word: (term, pos) => {
        if (term === '') return;
        terms.push(term);
        positions.push(pos);
      },
      mark: (m) => marks.push(m),
    });
    const spz = this.settings.indexSp || this.settings.indexZones !== '';
    const out: IndexedField = spz ? { terms, positions, length, marks } : { terms, positions, length };
    // a field ending in a blended token ends where that token starts (Manticore's indexer)
    if (this.walker.lastBlend >= 0) out.blendEnd = this.walker.lastBlend;
    return out;
  }

  indexFieldInto(text: string, sink: BatchSink): number | null {
    return this.fieldPacker.packBatch(this.strip(text).text, sink);
  }

  fieldsScanner(): FieldScanner | null {
    return this.stripper ? null : this.fieldPacker.batchScanner();
  }

  indexScannedInto(scan: FieldsScan, from: number, count: number, sink: BatchSink): number {
    this.fieldPacker.numberScanned(scan.texts, scan.generation);
    return this.fieldPacker.packScanned(scan.records, from, count, scan.texts, scan.generation, sink);
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
