/**
 * libc_ci, searchd's default collation (collation_server; src/collation.cpp CollateLibcCI):
 * strncasecmp over the shorter length in the C locale (ASCII letters fold, other characters compare as
 * they are), then the shorter string first. String filters on JSON values compare with it.
 */

/** A code unit with A-Z folded to a-z. */
const folded = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

export function libcCiCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  // a loop over code units, no folded copies: a filter compares once per row
  for (let i = 0; i < n; i++) {
    const d = folded(a.charCodeAt(i)) - folded(b.charCodeAt(i));
    if (d) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
