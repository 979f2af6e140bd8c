/** What CALL AUTOCOMPLETE and OPTION fuzzy share: Buddy's min_infix_len check and a code point Levenshtein distance. */
import { SearchError } from '../../util/errors.js';
import type { Table } from '../table.js';

/** Buddy's TableValidator: the table must have min_infix_len set, else `message` (a 1064 error). */
export function requireInfixes(table: Table, message: string): void {
  if (!(Number.parseInt(table.schema.settings.min_infix_len ?? '0', 10) > 0)) throw new SearchError('PARSE_ERROR', message);
}

/** Levenshtein distance over code points (Buddy's PHP levenshtein counts bytes; equal for ASCII). */
export function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length]!;
}
