/**
 * What the query lexer asks of the table's text settings beyond its charset: exceptions, matched on
 * the raw query text, and multi-word wordforms, which join several typed words into one keyword
 * (Manticore's query tokenizer carries both: its exceptions trie and the multiform filter).
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
}
