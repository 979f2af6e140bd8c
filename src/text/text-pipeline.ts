/** A table's text pipeline: HTML strip, tokenize, fold, stem, stopwords -> terms at positions. */
import type { FieldTokens } from '../index/types.js';
import type { TableSettings } from '../schema/types.js';
import { SearchError } from '../util/errors.js';
import {
  addFlaggedChars, buildCaseFolding, FLAG_BLEND, FLAG_BOUNDARY, FLAG_IGNORE, type CharsetTable,
} from './charset-table.js';
import { HtmlStripper } from './html-strip.js';
import { stemEn } from './stem-en.js';
import { stemRu } from './stem-ru.js';
import { Stopwords } from './stopwords.js';
import { TermDictionary, type StemFn } from './term-dictionary.js';
import { parseTextSettings, type Stemmer, type TextSettings } from './text-settings.js';
import { QUERY_SPECIALS, Tokenizer } from './tokenizer.js';

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

export interface TextPipeline {
  readonly settings: TextSettings;
  /** A field's tokens, stopwords included (term ''), overshort ones left out. */
  tokenize(text: string): Token[];
  /** What the index stores: terms at positions; stopwords and overshort tokens only take positions. */
  indexField(text: string): FieldTokens;
  /** A plain query word -> its dictionary terms (`foo_bar` -> foo, bar); stopwords are left out. */
  normalizeWord(word: string): string[];
  /** CALL KEYWORDS: query-mode tokens with their positions; stopwords take a qpos but give no row. */
  keywords(text: string): KeywordRow[];
}

export interface PipelineOptions {
  /** Where bundled stopword lists live (`<shareDir>/stopwords/<name>`), like Manticore's share dir. */
  shareDir?: string;
}

const STEMMERS: Record<Stemmer, StemFn> = { stem_en: stemEn, stem_ru: stemRu };

const charsetCache = new Map<string, CharsetTable>();

/** The folding table for the settings, shared between tables with identical charset settings. */
function charsetFor(ts: TextSettings): CharsetTable {
  const key = JSON.stringify([ts.charsetTable, ts.phraseBoundary, ts.ignoreChars, ts.blendChars]);
  let table = charsetCache.get(key);
  if (!table) {
    table = buildCaseFolding(ts.charsetTable);
    if (ts.phraseBoundary) addFlaggedChars(table, 'phrase_boundary', ts.phraseBoundary, FLAG_BOUNDARY, 'phrase boundary', false);
    if (ts.ignoreChars) addFlaggedChars(table, 'ignore_chars', ts.ignoreChars, FLAG_IGNORE, 'ignored', false);
    if (ts.blendChars) {
      addFlaggedChars(table, 'blend_chars', ts.blendChars, FLAG_BLEND, 'blend', true);
      throw new SearchError('UNSUPPORTED', 'blend_chars is not supported');
    }
    charsetCache.set(key, table);
  }
  return table;
}

function stemmersFor(ts: TextSettings): StemFn[] {
  return ts.morphology.map((name) => STEMMERS[name]);
}

/** Builds the pipeline for a table; invalid settings throw SearchError with Manticore's texts. */
export function createTextPipeline(settings: TableSettings, opts: PipelineOptions = {}): TextPipeline {
  const ts = parseTextSettings(settings);
  const table = charsetFor(ts);
  const stemmers = stemmersFor(ts);
  const indexTok = new Tokenizer(table, { minWordLen: ts.minWordLen, queryMode: false });
  const bare = new TermDictionary(stemmers, Stopwords.NONE, ts);
  const stopwords = Stopwords.fromSetting(ts.stopwords, {
    shareDir: opts.shareDir,
    tokenize: (line) => collectTexts(indexTok, line),
    normalize: (token) => (ts.stopwordsUnstemmed ? token : bare.stem(token)),
  });
  const dict = new TermDictionary(stemmers, stopwords, ts);
  const stripper = ts.htmlStrip
    ? new HtmlStripper({ indexAttrs: ts.htmlIndexAttrs, removeElements: ts.htmlRemoveElements })
    : null;
  return new Pipeline(ts, table, indexTok, dict, stripper);
}

function collectTexts(tok: Tokenizer, text: string): string[] {
  const out: string[] = [];
  tok.reset(text);
  while (tok.next()) if (!tok.special) out.push(tok.text);
  return out;
}

class Pipeline implements TextPipeline {
  private queryTok: Tokenizer | undefined;

  constructor(
    readonly settings: TextSettings,
    private readonly table: CharsetTable,
    private readonly indexTok: Tokenizer,
    private readonly dict: TermDictionary,
    private readonly stripper: HtmlStripper | null,
  ) {}

  /** Query mode uses the table plus the query specials (Manticore's query tokenizer clone). */
  private query(): Tokenizer {
    this.queryTok ??= new Tokenizer(this.table.withSpecials(QUERY_SPECIALS), {
      minWordLen: this.settings.minWordLen, queryMode: true,
    });
    return this.queryTok;
  }

  /**
   * Runs the index tokenizer over a field and reports each token with its position: the position
   * advances by the previous token's step plus skipped overshort tokens, plus phrase_boundary_step
   * after a boundary (Manticore's BuildRegularHits).
   */
  private walk(text: string, visit: (term: string, pos: number, tok: Tokenizer) => void): number {
    const ts = this.settings;
    const tok = this.indexTok;
    tok.reset(text);
    let pos = 0;
    let step = 1;
    let lastIndexed = 0;
    while (tok.next()) {
      pos += Math.max(step + tok.overshort * ts.overshortStep, 0);
      if (tok.boundary) pos += ts.phraseBoundaryStep;
      const term = this.dict.term(tok.text);
      visit(term, pos, tok);
      if (term !== '') {
        step = 1;
        lastIndexed = pos;
      } else {
        step = ts.stopwordStep;
      }
    }
    return lastIndexed;
  }

  tokenize(text: string): Token[] {
    const stripped = this.stripper?.strip(text);
    const out: Token[] = [];
    this.walk(stripped ? stripped.text : text, (term, pos, tok) => {
      let start = tok.start;
      let end = tok.end;
      if (stripped?.starts && stripped.ends) {
        start = stripped.starts[start];
        end = stripped.ends[end - 1];
      }
      out.push({ text: tok.text, term, pos, start, end });
    });
    return out;
  }

  indexField(text: string): FieldTokens {
    const source = this.stripper ? this.stripper.strip(text).text : text;
    const terms: string[] = [];
    const positions: number[] = [];
    const length = this.walk(source, (term, pos) => {
      if (term === '') return;
      terms.push(term);
      positions.push(pos);
    });
    return { terms, positions, length };
  }

  normalizeWord(word: string): string[] {
    const tok = this.query();
    const out: string[] = [];
    tok.reset(word);
    while (tok.next()) {
      if (tok.special) continue;
      const term = this.dict.term(tok.text);
      if (term !== '') out.push(term);
    }
    return out;
  }

  keywords(text: string): KeywordRow[] {
    const tok = this.query();
    const rows: KeywordRow[] = [];
    tok.reset(text);
    let qpos = 0;
    while (tok.next()) {
      if (tok.special) continue;
      qpos++;
      const term = this.dict.term(tok.text);
      if (term !== '') rows.push({ qpos, tokenized: tok.text, normalized: term });
    }
    return rows;
  }
}
