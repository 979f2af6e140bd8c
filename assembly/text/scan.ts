// The field scanner: folds and tokenizes a whole field of UTF-16 text with a charset table in one
// call (index mode, as src/text/tokenizer.ts without specials), and names each distinct folded token
// by an id from a cache the host mirrors. The host then makes one string (and one stem) per distinct
// token instead of one per occurrence, and no object per word.
//
// Token record (SCAN_RECORD_WORDS i32): start, end (UTF-16 offsets; end is where the separator after
// the token begins), id, extra = overshort tokens dropped before it << 1 | phrase boundary before it.
// A highlight scan may name only the tokens it needs: one starting with a letter a-z whose bit is set
// in `skipFirst` gets id -1 and costs no hash and no look-up (see scanField).

import { asciiRun, useAsciiFold } from "./ascii-run";
import { arena, FRONT_UNITS, frontSlot, idOf, keyHash, scanReset, SLOT_BYTES, slotCount, slots } from "./scan-ids";

/** Entry bits, as src/text/charset-table.ts. */
const CODE_MASK: u32 = 0x00ffffff;
const FLAG_SPECIAL: u32 = 0x01000000;
const FLAG_BOUNDARY: u32 = 0x10000000;
const FLAG_IGNORE: u32 = 0x20000000;
const FLAG_BLEND: u32 = 0x40000000;

/** Token limits, as MAX_TOKEN_CODEPOINTS / MAX_TOKEN_BYTES of the TS tokenizer. */
const MAX_CPS: i32 = 42;
const MAX_BYTES: i32 = 126;

/** The scan needs the TS tokenizer (a surrogate, a special or blend character): nothing written. */
const SCAN_UNSUPPORTED: i32 = -1;
/** The cache is full: the host resets it and scans the field again. */
const SCAN_FULL: i32 = -2;

/**
 * Tokens are looked up in batches: the slots (and the first candidate's key) of a whole batch are
 * read before any is resolved, so their cache misses overlap instead of following one another (a
 * large vocabulary's table is mostly out of cache). Resolution stays in token order.
 */
const BATCH: i32 = 32;
/** Folded keys of the pending batch (MAX_CPS codepoints, two units each, per token), their hashes and lengths. */
const pendKeys: usize = memory.data(BATCH * MAX_CPS * 4);
const pendHash: usize = memory.data(BATCH * 4);
const pendUnits: usize = memory.data(BATCH * 4);
/** The record index of each pending token (tokens the front cache names are not pending). */
const pendRecord: usize = memory.data(BATCH * 4);
let pendCount: i32 = 0;
/** Where the touched values go, so the reads are kept. */
let sink: u32 = 0;

/**
 * Resolves the pending batch into their records' ids, and remembers the short ones in the front
 * cache (false: the cache is full).
 */
function flush(out: usize): bool {
  const mask = <u32>(slotCount - 1);
  let acc: u32 = 0;
  for (let j = 0; j < pendCount; j++) {
    acc += load<u32>(slots + <usize>(load<u32>(pendHash + (<usize>j << 2)) & mask) * SLOT_BYTES, 8);
  }
  for (let j = 0; j < pendCount; j++) {
    const e = slots + <usize>(load<u32>(pendHash + (<usize>j << 2)) & mask) * SLOT_BYTES;
    if (load<u32>(e, 4) != 0) acc += <u32>load<u16>(arena + (<usize>load<u32>(e, 8) << 1));
  }
  sink += acc;
  for (let j = 0; j < pendCount; j++) {
    const key = pendKeys + <usize>j * MAX_CPS * 4;
    const units = load<i32>(pendUnits + (<usize>j << 2));
    const h = load<u32>(pendHash + (<usize>j << 2));
    const id = idOf(key, units, h);
    if (id < 0) return false;
    store<i32>(out + (<usize>load<i32>(pendRecord + (<usize>j << 2)) << 4), id, 8);
    if (units <= FRONT_UNITS) {
      const f = frontSlot(h);
      store<u64>(f, load<u64>(key));
      store<u64>(f, load<u64>(key, 8), 8);
      store<u32>(f, <u32>units, 16);
      store<i32>(f, id, 20);
    }
  }
  pendCount = 0;
  return true;
}

/**
 * Scans `len` UTF-16 units at `text` with the BMP folding table at `table` (u32[65536]), writing
 * token records to `out` (room for len / 2 + 1 records). Returns the record count, SCAN_UNSUPPORTED
 * or SCAN_FULL. Tokens shorter than `minWordLen` codepoints are dropped and counted. A token whose
 * folded key starts with letter a + i where bit i of `skipFirst` is set is not named (id -1): a
 * highlight knows such tokens cannot be query words nor stopwords, and the look-ups were a third of
 * a scan (0 names every token, as the index needs).
 */
export function scanField(table: usize, text: usize, len: i32, minWordLen: i32, out: usize, skipFirst: u32): i32 {
  if (slots == 0) scanReset();
  useAsciiFold(table);
  pendCount = 0;
  const n = scanText(table, text, len, minWordLen, out, skipFirst, 0);
  if (n < 0) return n;
  if (pendCount > 0 && !flush(out)) return SCAN_FULL;
  return n;
}

/**
 * scanField over `fields` fields one after another at `text` (field f's length in units at `lens`,
 * u32 each), in one call: records of all of them from record 0 on (offsets relative to each field's
 * start), each field's record count at `counts` (i32; SCAN_UNSUPPORTED for a field the TS tokenizer
 * must take, which writes no records). A bulk load scans its fields so: a call per field and a
 * look-up batch cut short at each field's end were a third of the scan of a field of gcide. Returns
 * the record count of all, or SCAN_FULL (the host resets the cache and scans them all again).
 */
export function scanFields(table: usize, text: usize, lens: usize, fields: i32, minWordLen: i32, out: usize, counts: usize): i32 {
  if (slots == 0) scanReset();
  useAsciiFold(table);
  pendCount = 0;
  let n = 0;
  let at = text;
  for (let f = 0; f < fields; f++) {
    const len = load<i32>(lens + (<usize>f << 2));
    const m = scanText(table, at, len, minWordLen, out, 0, n);
    if (m == SCAN_FULL) return SCAN_FULL;
    if (m == SCAN_UNSUPPORTED) {
      // the field's look-ups still pending are dropped (those of the fields before it stay)
      while (pendCount > 0 && load<i32>(pendRecord + (<usize>(pendCount - 1) << 2)) >= n) pendCount--;
      store<i32>(counts + (<usize>f << 2), SCAN_UNSUPPORTED);
    } else {
      store<i32>(counts + (<usize>f << 2), m - n);
      n = m;
    }
    at += <usize>len << 1;
  }
  if (pendCount > 0 && !flush(out)) return SCAN_FULL;
  return n;
}

/**
 * One field's tokens as records from record `n0` on, its look-ups added to the pending batch (which
 * the caller flushes at the end); the record count after it, or SCAN_UNSUPPORTED / SCAN_FULL.
 */
function scanText(table: usize, text: usize, len: i32, minWordLen: i32, out: usize, skipFirst: u32, n0: i32): i32 {
  let tok = pendKeys + <usize>pendCount * MAX_CPS * 4;
  // keys are zero-padded to the front cache's width, so a short one compares as two u64
  store<u64>(tok, 0);
  store<u64>(tok, 0, 8);
  let n = n0;
  let cps = 0;
  let bytes = 0;
  let units = 0;
  let start = 0;
  let overshort = 0;
  let boundary = 0;
  let afterBoundary = false;
  for (let at = 0; at <= len; at++) {
    let entry: u32 = 0;
    if (at < len) {
      const c = <u32>load<u16>(text + (<usize>at << 1));
      if ((c & 0xf800) == 0xd800) return SCAN_UNSUPPORTED;
      entry = load<u32>(table + (<usize>c << 2));
      // most characters of most text: a word character folding to ASCII, no flags, the token under its
      // limits; it and the run of such characters after it are taken in one tight loop
      if (entry - 1 < 0x7f && cps < MAX_CPS && bytes < MAX_BYTES) {
        if (cps == 0) {
          start = at;
          // a token starting on a plain ASCII word character: its run in one SIMD step when it is
          // shorter than 16 units and the 16 are ASCII; the character after it ends or continues it below
          if (at + 16 <= len) {
            const run = asciiRun(text, at, tok);
            if (run != 0) {
              cps = run;
              bytes = run;
              units = run;
              at += run - 1;
              afterBoundary = false;
              continue;
            }
          }
        }
        const room = min(MAX_CPS - cps, MAX_BYTES - bytes);
        const key = tok + (<usize>units << 1);
        store<u16>(key, <u16>entry);
        let k = 1;
        let next = at + 1;
        while (k < room && next < len) {
          const cn = <u32>load<u16>(text + (<usize>next << 1));
          const e = load<u32>(table + (<usize>cn << 2));
          // anything else (a surrogate too) is left to the full test above
          if (e - 1 >= 0x7f || (cn & 0xf800) == 0xd800) break;
          store<u16>(key + (<usize>k << 1), <u16>e);
          k++;
          next++;
        }
        cps += k;
        bytes += k;
        units += k;
        at = next - 1;
        afterBoundary = false;
        continue;
      }
      // a plain separator outside a token: nothing to end or mark
      if (entry == 0 && cps == 0 && !afterBoundary) continue;
      if (entry & FLAG_IGNORE) continue;
      if ((entry & (FLAG_SPECIAL | FLAG_BLEND)) != 0) return SCAN_UNSUPPORTED;
      if (afterBoundary && entry == 0) boundary = 1;
      afterBoundary = (entry & FLAG_BOUNDARY) != 0;
      if (entry != 0 && !afterBoundary) {
        // a word character: accumulate its folded codepoint unless the token is at its limit
        if (cps == 0) start = at;
        const code = entry & CODE_MASK;
        const need = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        if (cps < MAX_CPS && bytes + need <= MAX_BYTES) {
          cps++;
          bytes += need;
          if (code < 0x10000) {
            // a fold into the surrogate range: the key would not be text (the TS tokenizer keeps it)
            if ((code & 0xf800) == 0xd800) return SCAN_UNSUPPORTED;
            store<u16>(tok + (<usize>units << 1), <u16>code);
            units++;
          } else {
            const hi = 0xd800 + ((code - 0x10000) >> 10);
            const lo = 0xdc00 + ((code - 0x10000) & 0x3ff);
            store<u16>(tok + (<usize>units << 1), <u16>hi);
            store<u16>(tok + (<usize>units << 1), <u16>lo, 2);
            units += 2;
          }
        }
        continue;
      }
    }
    // a separator (or the end): the accumulated token ends here
    if (cps == 0) continue;
    if (cps < minWordLen) {
      overshort++;
    } else {
      const r = out + (<usize>n << 4);
      store<i32>(r, start);
      store<i32>(r, at, 4);
      store<i32>(r, (overshort << 1) | boundary, 12);
      const letter = <u32>load<u16>(tok) - 0x61;
      if (letter < 26 && ((skipFirst >> letter) & 1) != 0) {
        // not named: the highlight needs no id for it
        store<i32>(r, -1, 8);
      } else {
        const h = keyHash(tok, units);
        const f = frontSlot(h);
        if (units <= FRONT_UNITS && load<u32>(f, 16) == <u32>units && load<u64>(f) == load<u64>(tok) && load<u64>(f, 8) == load<u64>(tok, 8)) {
          store<i32>(r, load<i32>(f, 20), 8);
        } else {
          store<u32>(pendHash + (<usize>pendCount << 2), h);
          store<i32>(pendUnits + (<usize>pendCount << 2), units);
          store<i32>(pendRecord + (<usize>pendCount << 2), n);
          pendCount++;
          if (pendCount == BATCH && !flush(out)) return SCAN_FULL;
          tok = pendKeys + <usize>pendCount * MAX_CPS * 4;
        }
      }
      n++;
      overshort = 0;
      boundary = 0;
    }
    store<u64>(tok, 0);
    store<u64>(tok, 0, 8);
    cps = 0;
    bytes = 0;
    units = 0;
  }
  return n;
}
