/**
 * What the query lexer asks of the table's text settings beyond its charset: exceptions, matched on
 * the raw query text, multi-word wordforms, which join several typed words into one keyword, and
 * blend_chars (Manticore's query tokenizer carries all three).
 */
export interface QueryTextHooks {
  /**
   * Where an exception that starts at `pos` of the raw query text ends, or -1: case-sensitive,
   * backslash escapes skipped, followed by a separator or the end (Manticore's CheckException).
   */
  exceptionAt(text: string, pos: number): number;
  /**
   * How many of the typed `words` (2 or more, from the first) form one multi-word wordform source,
   * or 0 when none does. The words are raw; the table folds them.
   */
  multiWordSpan(words: readonly string[]): number;
  /** Longest multi-word source, in words (0 without multi-word wordforms). */
  readonly maxMultiWords: number;
  /**
   * Query positions a typed word takes beyond its own: a blended token's parts after the first
   * (Manticore's parser skips them but counts their positions), or -1 for a word the table's
   * tokenizer drops outright (blend_mode skip_pure). 0 when absent.
   */
  extraPositions?(word: string): number;
  /** A blend_chars character: inside a word (`@`, `/`, `-`) or a phrase it is no operator. */
  isBlendChar?(cp: number): boolean;
}
