/**
 * libc_ci, searchd's default collation (collation_server; src/collation.cpp CollateLibcCI):
 * strncasecmp over the shorter length in the C locale (ASCII letters fold, other bytes compare as they
 * are), then the shorter string first. String filters on JSON values compare with it.
 */
const fold = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

export function libcCiCompare(a: string, b: string): number {
  const x = fold(a), y = fold(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
