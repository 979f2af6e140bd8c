/**
 * Sentence, paragraph and zone marks as the index stores them: hits of reserved terms at the
 * marks' positions, as Manticore's BuildZoneHits (a paragraph also ends a sentence; a zone tag
 * also ends both), so SENTENCE, PARAGRAPH and ZONE read them like any keyword.
 */
import { withExtras } from './field-extras.js';
import type { FieldTokens } from './types.js';

/** Reserved terms; the leading control character keeps them out of any tokenizer's output. */
export const SENTENCE_TERM = '\u0002sentence';
export const PARAGRAPH_TERM = '\u0003paragraph';
/** A zone tag's term: `\u0004name` when it opens, `\u0004/name` when it closes. */
export function zoneTerm(tag: string): string {
  return `\u0004${tag.toLowerCase()}`;
}

/** A mark as the text pipeline reports it. */
export interface MarkInput { kind: 'sentence' | 'paragraph' | 'zone'; pos: number; zone: string }

/** True for terms the index adds itself (marks, exact forms): wildcards never expand to them. */
export function isReservedTerm(term: string): boolean {
  return term.charCodeAt(0) < 0x20;
}

/** `field` plus the mark terms; without marks the field is returned as is. */
export function withMarkTerms(field: FieldTokens, marks: MarkInput[] | undefined): FieldTokens {
  if (!marks || marks.length === 0) return field;
  const terms = field.terms.slice();
  const positions = field.positions.slice();
  const add = (t: string, pos: number) => { terms.push(t); positions.push(pos); };
  for (const m of marks) {
    add(SENTENCE_TERM, m.pos);
    if (m.kind === 'sentence') continue;
    add(PARAGRAPH_TERM, m.pos);
    if (m.kind === 'zone') add(zoneTerm(m.zone), m.pos);
  }
  // not a spread: a packed field's numbers would go along and stand for the old terms
  return withExtras(field, terms, positions);
}
