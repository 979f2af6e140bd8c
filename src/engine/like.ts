/** SQL LIKE patterns (`%` any run, `_` one character), case-insensitive as in Manticore's SHOW ... LIKE. */
export function likeMatcher(pattern: string | undefined): (s: string) => boolean {
  if (pattern === undefined) return () => true;
  let re = '^';
  for (const ch of pattern) {
    if (ch === '%') re += '.*';
    else if (ch === '_') re += '.';
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  const rx = new RegExp(re + '$', 'is');
  return (s) => rx.test(s);
}
