/**
 * index_exact_words: next to each indexed word's dictionary form the index keeps its folded,
 * unstemmed form as the term `=word` at the same position, which `=word` in a query looks up.
 */
import { withExtras } from './field-extras.js';
import type { FieldTokens } from './types.js';

/** The term an exact form is stored under (Manticore's MAGIC_WORD_HEAD_NONSTEMMED). */
export const EXACT_HEAD = '=';

/** A field token as the text pipeline's analyze() gives it: folded text, dictionary term, position. */
export interface ExactToken { text: string; term: string; pos: number }

/**
 * Whether exact forms are in effect, as Manticore's index setup decides: index_exact_words=1 needs
 * morphology (else it warns and ignores it), and dict=keywords with prefixes or infixes and
 * morphology forces it on.
 */
export function exactWordsEnabled(hasMorphology: boolean, settings: Record<string, string>): boolean {
  if (!hasMorphology) return false;
  if (Number.parseInt(settings.index_exact_words ?? '0', 10) > 0) return true;
  const dictKeywords = (settings.dict ?? 'keywords').toLowerCase() !== 'crc';
  const affixes = Number.parseInt(settings.min_prefix_len ?? '0', 10) > 0 || Number.parseInt(settings.min_infix_len ?? '0', 10) > 0;
  return dictKeywords && affixes;
}

/** `field` plus `=text` at each indexed word's position; stopwords (term '') get none. */
export function withExactForms(field: FieldTokens, tokens: ExactToken[]): FieldTokens {
  const terms = field.terms.slice();
  const positions = field.positions.slice();
  for (const t of tokens) {
    if (t.term === '') continue;
    terms.push(EXACT_HEAD + t.text);
    positions.push(t.pos);
  }
  // not a spread: a packed field's numbers would go along and stand for the old terms
  return withExtras(field, terms, positions);
}
