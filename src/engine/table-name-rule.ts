/**
 * Which table names CREATE TABLE and auto schema accept, as Manticore 29 documents them: ASCII
 * letters, digits and underscores, and non-ASCII letters, marks and digits; not all digits. Spaces,
 * punctuation, control and format characters are refused: a name is a folder and a store key, and
 * the fuzzer's names with NUL bytes and line separators made a data directory that could not start.
 */
import { SearchError } from '../util/errors.js';

const NAME = /^[\p{L}\p{M}\p{N}_]+$/u;

/** Throws Manticore's-shape error when `name` is not a valid table name. */
export function checkTableName(name: string): void {
  // a lone UTF-16 surrogate (JSON "\ud800") has no UTF-8 form: say so rather than "invalid character"
  if (/\p{Surrogate}/u.test(name)) {
    throw new SearchError('BAD_VALUE', 'CREATE TABLE failed: table name is not valid UTF-8 (a lone surrogate)');
  }
  if (!NAME.test(name) || /^\d+$/.test(name)) {
    throw new SearchError('BAD_VALUE', `CREATE TABLE failed: table name '${printable(name)}' is not valid: use letters, digits and underscores, not digits alone`);
  }
}

/** The name as an error message can show it: control characters escaped, long names cut. */
function printable(name: string): string {
  const shown = name.length > 64 ? `${name.slice(0, 64)}...` : name;
  return shown.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
