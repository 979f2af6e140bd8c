/**
 * A field's tokens with terms appended after the text's own (sentence/paragraph/zone mark terms, exact
 * forms): the appended entries are not in text order, so the field remembers where they start
 * (FieldTokens.extrasFrom) and the inversion finds the field's end hits among them by position.
 */
import type { FieldTokens } from './types.js';

/** `field`'s length and end with `terms` and `positions` (its own entries, then the appended ones). */
export function withExtras(field: FieldTokens, terms: string[], positions: number[]): FieldTokens {
  const out: FieldTokens = { terms, positions, length: field.length, extrasFrom: field.extrasFrom ?? field.terms.length };
  if (field.blendEnd !== undefined) out.blendEnd = field.blendEnd;
  return out;
}
