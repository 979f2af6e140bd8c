import { patternRegExp } from '../util/pattern-regexp.js';

/** SQL LIKE patterns (`%` any run, `_` one character), case-insensitive as in Manticore's SHOW ... LIKE. */
export function likeMatcher(pattern: string | undefined): (s: string) => boolean {
  if (pattern === undefined) return () => true;
  let re = '^';
  for (const ch of pattern) {
    if (ch === '%') re += '.*';
    else if (ch === '_') re += '.';
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  const rx = patternRegExp(re + '$', 'is', 'LIKE pattern');
  return (s) => rx.test(s);
}
