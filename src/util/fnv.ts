/**
 * FNV-1a over UTF-16 units, as a signed 32-bit value (`>>> 0` for an unsigned one): the hash of the
 * string-keyed tables in JavaScript (the token -> term cache, the build's term numbers).
 */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The hash of `buf[0, len)`, equal to fnvString of the same units. */
export function fnvUnits(buf: Uint16Array, len: number): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < len; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
  return h;
}

export function fnvString(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}
