/** A field of indexField() as plain data: a packed field's terms and positions are getters, not own keys. */
import type { IndexedField } from '../../../src/text/text-pipeline.js';

export function plainField(f: IndexedField): IndexedField {
  return { terms: f.terms, positions: f.positions, length: f.length, ...(f.marks ? { marks: f.marks } : {}) };
}
