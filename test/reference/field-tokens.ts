/**
 * Reference twin of the core's field scanner (assembly/text/scan.ts): the TS index tokenizer's
 * tokens of a field, in the scanner's terms (folded text, offsets, overshort count, boundary flag).
 */
import type { CharsetTable } from '../../src/text/charset-table.js';
import { Tokenizer } from '../../src/text/tokenizer.js';

export interface FieldToken { text: string; start: number; end: number; overshort: number; boundary: boolean }

export function referenceFieldTokens(table: CharsetTable, text: string, minWordLen: number): FieldToken[] {
  const tok = new Tokenizer(table, { minWordLen, queryMode: false });
  const out: FieldToken[] = [];
  tok.reset(text);
  while (tok.next()) out.push({ text: tok.text, start: tok.start, end: tok.end, overshort: tok.overshort, boundary: tok.boundary });
  return out;
}
