/** The min_infix_len check CALL SUGGEST, CALL AUTOCOMPLETE and OPTION fuzzy share (each with its own error). */
import { SearchError } from '../../util/errors.js';
import type { Table } from '../table.js';

/** Whether the table indexes infixes (min_infix_len > 0), what suggestions need in Manticore. */
export function hasInfixes(table: Table): boolean {
  return Number.parseInt(table.schema.settings.min_infix_len ?? '0', 10) > 0;
}

/** Buddy's TableValidator: the table must have min_infix_len set, else `message` (a 1064 error). */
export function requireInfixes(table: Table, message: string): void {
  if (!hasInfixes(table)) throw new SearchError('PARSE_ERROR', message);
}
