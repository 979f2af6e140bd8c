/** Sentence, paragraph and zone marks (index_sp / index_zones): Manticore's magic codes, shared by stripper and tokenizer. */

/** A sentence end found by the tokenizer (`.`, `?`, `!` with index_sp=1). */
export const SENTENCE_MARK = 0x02;
/** A block element turned into a paragraph boundary by the stripper (index_sp=1 with html_strip=1). */
export const PARAGRAPH_MARK = 0x03;
/** Brackets a zone tag name in stripped text: ZONE_MARK name ZONE_MARK (`/name` when closing). */
export const ZONE_MARK = 0x04;

export type MarkKind = 'sentence' | 'paragraph' | 'zone';

/** An SPZ mark at a position: it takes a position of its own, like a word. */
export interface SpzMark {
  kind: MarkKind;
  pos: number;
  /** Zone tag name (lowercase), `/name` for a closing tag; '' for other kinds. */
  zone: string;
  /** UTF-16 offsets into the original text. */
  start: number;
  end: number;
}

export function markKind(code: number): MarkKind | undefined {
  if (code === SENTENCE_MARK) return 'sentence';
  if (code === PARAGRAPH_MARK) return 'paragraph';
  if (code === ZONE_MARK) return 'zone';
  return undefined;
}
