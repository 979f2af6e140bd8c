// The field scanner's SIMD step (scan.ts): a run of plain ASCII word characters taken and folded
// 16 units at a time by the charset table's ASCII fold, instead of one character per loop turn.

/**
 * The table's fold of each ASCII unit for the SIMD run: the folded code where it is a plain word
 * character folding to ASCII (the scalar fast path's test), else 0. Made once per table address
 * (a placed table is never freed or rewritten, so its address names it).
 */
const asciiFold: usize = memory.data(128, 16);
let asciiFoldOf: usize = 0;

/** Makes asciiRun() fold by `table` (a charset table's address), unless it already does. */
export function useAsciiFold(table: usize): void {
  if (asciiFoldOf != table) makeAsciiFold(table);
}

function makeAsciiFold(table: usize): void {
  let alnum = true;
  let underscore = true;
  for (let c: u32 = 0; c < 128; c++) {
    const e = load<u32>(table + (<usize>c << 2));
    const f: u32 = e - 1 < 0x7f ? e : 0;
    store<u8>(asciiFold + <usize>c, <u8>f);
    const letter = (c | 0x20) - 0x61 < 26;
    const std: u32 = letter ? c | 0x20 : c - 0x30 < 10 ? c : 0;
    if (f != std) alnum = false;
    if (f != (c == 0x5f ? c : std)) underscore = false;
  }
  asciiKind = alnum ? ASCII_ALNUM : underscore ? ASCII_ALNUM_UNDERSCORE : ASCII_TABLE;
  asciiFoldOf = table;
}

/**
 * How asciiRun folds: by the 128-entry table (8 swizzles), or, when the table's ASCII part is the usual
 * one (digits, letters folded to lower case, with or without `_`: the default charsets'), by compares.
 */
const ASCII_TABLE: i32 = 0;
const ASCII_ALNUM: i32 = 1;
const ASCII_ALNUM_UNDERSCORE: i32 = 2;
let asciiKind: i32 = ASCII_TABLE;

/** The fold of 16 ASCII bytes by the table: the folded code of a plain word character, else 0. */
@inline function foldByTable(b: v128): v128 {
  let f = i8x16.swizzle(v128.load(asciiFold), b);
  f = v128.or(f, i8x16.swizzle(v128.load(asciiFold, 16), i8x16.sub(b, i8x16.splat(16))));
  f = v128.or(f, i8x16.swizzle(v128.load(asciiFold, 32), i8x16.sub(b, i8x16.splat(32))));
  f = v128.or(f, i8x16.swizzle(v128.load(asciiFold, 48), i8x16.sub(b, i8x16.splat(48))));
  f = v128.or(f, i8x16.swizzle(v128.load(asciiFold, 64), i8x16.sub(b, i8x16.splat(64))));
  f = v128.or(f, i8x16.swizzle(v128.load(asciiFold, 80), i8x16.sub(b, i8x16.splat(80))));
  f = v128.or(f, i8x16.swizzle(v128.load(asciiFold, 96), i8x16.sub(b, i8x16.splat(96))));
  return v128.or(f, i8x16.swizzle(v128.load(asciiFold, 112), i8x16.sub(b, i8x16.splat(112))));
}

/** foldByTable for the usual ASCII part (asciiKind not ASCII_TABLE): letters | 0x20, digits as they are, `_` with its kind. */
@inline function foldByCompare(b: v128): v128 {
  const lower = v128.or(b, i8x16.splat(0x20));
  const letter = i8x16.lt_u(i8x16.sub(lower, i8x16.splat(0x61)), i8x16.splat(26));
  let word = i8x16.lt_u(i8x16.sub(b, i8x16.splat(0x30)), i8x16.splat(10));
  if (asciiKind == ASCII_ALNUM_UNDERSCORE) word = v128.or(word, i8x16.eq(b, i8x16.splat(0x5f)));
  // a letter's lower case, a digit's or `_`'s own code, else 0
  return v128.or(v128.and(letter, lower), v128.and(word, b));
}

/** Lane numbers 0..15, for the SIMD run's lane mask. */
const IOTA: v128 = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

/**
 * The plain ASCII word characters from `at` (16 units there, `at` itself one of them), folded into
 * the key at `tok` (zero-padded to 16 units): their count, or 0 when the 16 are not all ASCII or
 * all word characters (the scalar loop takes those). Branch-free over the run: the per-character
 * loop's exit at an unpredictable word length was a third of a scan of real text.
 */
@inline export function asciiRun(text: usize, at: i32, tok: usize): i32 {
  const p = text + (<usize>at << 1);
  const v0 = v128.load(p);
  const v1 = v128.load(p, 16);
  if (v128.any_true(v128.and(v128.or(v0, v1), i16x8.splat(<i16>0xff80)))) return 0;
  const b = i8x16.narrow_i16x8_u(v0, v1);
  const f = asciiKind == ASCII_TABLE ? foldByTable(b) : foldByCompare(b);
  const stops = i8x16.bitmask(i8x16.eq(f, i8x16.splat(0)));
  if (stops == 0) return 0;
  const run = <i32>ctz(stops);
  const kept = v128.and(f, i8x16.lt_u(IOTA, i8x16.splat(<i8>run)));
  v128.store(tok, i16x8.extend_low_i8x16_u(kept));
  v128.store(tok, i16x8.extend_high_i8x16_u(kept), 16);
  return run;
}
