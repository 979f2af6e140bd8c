/** Query-mode words of a text in dictionary form: exceptions, multi-word wordforms and blended tokens applied. */
import { expandBlended, type Blender, type WalkToken } from './blend.js';
import type { Exceptions } from './exceptions.js';
import type { TermDictionary } from './term-dictionary.js';
import type { Tokenizer } from './tokenizer.js';
import type { Wordforms } from './wordforms.js';

/** blend_chars: the table's blend rules and the tokenizer that reads a blended token's parts. */
export interface BlendParts {
  blender: Blender;
  parts: Tokenizer;
}

/**
 * One query word: its folded text and term ('' for a stopword). `stay`: the next word keeps this
 * word's query position (a blended token's variants, as CALL KEYWORDS numbers them).
 */
export type QueryWordVisitor = (word: string, term: string, stay: boolean) => void;

export class QueryWords {
  constructor(
    private readonly tok: Tokenizer,
    private readonly dict: TermDictionary,
    private readonly wordforms: Wordforms,
    private readonly exceptions: Exceptions,
    private readonly wordChar: (cp: number) => boolean,
    private readonly blend: BlendParts | null,
  ) {}

  /**
   * Visits the words of `text`, operators left out. `all` (CALL KEYWORDS): a blended token gives
   * itself and then its parts; otherwise (a keyword the query parser read) only itself, as
   * Manticore's parser skips a blended token's parts. (Query-mode blending is trim_none only.)
   */
  each(raw: string, visit: QueryWordVisitor, all: boolean): void {
    // a keyword the parser read keeps its blend characters even where they are operators (the
    // lexer already decided they are part of the word, e.g. an escaped `\(`)
    const text = !all && this.blend?.blender.touches(raw) ? this.escapeBlend(raw) : raw;
    let from = 0;
    for (const m of this.exceptions.find(text, this.wordChar, true)) {
      this.run(text.slice(from, m.start), visit, all);
      visit(m.to, this.dict.term(m.to), false);
      from = m.end;
    }
    this.run(from === 0 ? text : text.slice(from), visit, all);
  }

  private run(part: string, visit: QueryWordVisitor, all: boolean): void {
    const words = this.tokens(part, all);
    for (let i = 0; i < words.length; i++) {
      const m = this.wordforms.hasMulti ? this.wordforms.matchMulti(words, i) : null;
      if (m) {
        i += m.words.length - 1;
        visit(m.dst, this.dict.formTerm(m.dst), false);
      } else {
        visit(words[i].text, this.dict.term(words[i].text), words[i].blend === 'variant');
      }
    }
  }

  /** Escapes every blend character, so the query tokenizer reads none of them as an operator. */
  private escapeBlend(word: string): string {
    let out = '';
    for (const ch of word) out += this.blend!.blender.touches(ch) ? `\\${ch}` : ch;
    return out;
  }

  /** The query tokenizer's words of `part`, blending applied. */
  private tokens(part: string, all: boolean): WalkToken[] {
    const tok = this.tok;
    const out: WalkToken[] = [];
    tok.reset(part);
    while (tok.next()) {
      if (tok.special) continue;
      const t: WalkToken = { text: tok.text, start: tok.start, end: tok.end, special: false, overshort: 0, boundary: false, zone: '' };
      if (!this.blend) {
        out.push(t);
        continue;
      }
      const expanded = expandBlended(this.blend.blender, t, part, this.blend.parts);
      if (all || expanded.length === 0) out.push(...expanded);
      else out.push({ ...expanded[0], blend: undefined });
    }
    return out;
  }

  /**
   * Query positions a typed word takes beyond its own: a blended token's parts after the first
   * (Manticore's parser adds SkipBlended()'s count less one to the atom position), or -1 for a
   * word skip_pure drops (Manticore's tokenizer never returns it, so it holds no position).
   */
  extraPositions(word: string): number {
    if (!this.blend || !this.blend.blender.touches(word)) return 0;
    const escaped = this.escapeBlend(word);
    let steps = 0;
    this.each(escaped, (_w, _t, stay) => { if (!stay) steps++; }, true);
    if (steps === 0 && this.blend.blender.mode.skipPure && this.blend.blender.kind(this.fold(escaped)) === 'pure') return -1;
    return Math.max(steps - 1, 0);
  }

  /** The query tokenizer's folded tokens of a word, joined (blend characters kept). */
  private fold(word: string): string {
    let out = '';
    this.tok.reset(word);
    while (this.tok.next()) if (!this.tok.special) out += this.tok.text;
    return out;
  }
}
