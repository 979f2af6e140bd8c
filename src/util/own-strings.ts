/**
 * Strings that share no storage with the text they were cut from. V8 represents a substring of 13 or
 * more characters as a slice that keeps its whole parent alive: a term tokenized out of a 500 kB
 * INSERT statement kept that statement in memory for as long as a segment's dictionary held the term
 * (21 MiB of statements behind the dictionary of 100k gcide documents).
 */

/** The same strings, backed by one fresh string of their characters (`strings` must not hold `sep`). */
export function ownStrings(strings: string[], sep = '\u0000'): string[] {
  if (strings.length === 0) return [];
  const out = strings.join(sep).split(sep);
  if (out.length === strings.length) return out;
  // a string held the separator: copy each one on its own
  return strings.map(ownString);
}

/**
 * V8 makes no slice or cons string shorter than this (its SlicedString and ConsString minimum length):
 * a shorter string is a flat copy already.
 */
const MIN_SHARED_LENGTH = 13;

/** One string copied into storage of its own (a cons string flattens into new storage). */
export function ownString(s: string): string {
  return s.length < MIN_SHARED_LENGTH ? s : (s + '\u0000').slice(0, -1);
}
