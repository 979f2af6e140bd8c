/**
 * SQL LIKE patterns (`%` any run, `_` one character), case-insensitive as in Manticore's SHOW ... LIKE.
 * Matched by the greedy two-pointer walk, not a RegExp: `.*a.*a...` backtracks in V8 for minutes over a
 * long name ('%a%a%a%a%a%a%a%a%a%a%a%a%a%ab' against a 60-letter table name), on the event loop that
 * serves every connection; the walk takes at most pattern x subject steps.
 */
export function likeMatcher(pattern: string | undefined): (s: string) => boolean {
  if (pattern === undefined) return () => true;
  const p = pattern.toLowerCase();
  return (subject) => likeMatch(p, subject.toLowerCase());
}

/** Whether `s` matches `p` (both lower case): on a mismatch, the last `%` takes one more character. */
function likeMatch(p: string, s: string): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < s.length) {
    if (i < p.length && p[i] !== '%' && (p[i] === '_' || p[i] === s[j])) {
      i++;
      j++;
    } else if (i < p.length && p[i] === '%') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else {
      return false;
    }
  }
  while (p[i] === '%') i++;
  return i === p.length;
}
