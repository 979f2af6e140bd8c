// groupRange(): the one call per segment (or range of rows) of a grouping query: the plan's matches,
// then each program's fold over them, written as one result block the host reads and frees.

import { E_BAD_PLAN } from "../util/codes";
import { DESC_BLOB, hdr, H_ROWS } from "../segment/layout";
import { ALL_MATCHES, lastTotal, matchRange } from "../plan/evaluate";
import { topkCount, topkEntries } from "../rank/topk";
import {
  SPEC_MAGIC, SPEC_HEADER_WORDS, MAX_PROGRAMS, GF_MATCHES, RESULT_HEADER_WORDS, PROGRAM_OUT_WORDS, RF_FALLBACK,
} from "./format";
import { foldFallback, foldFallbackReset, foldMatches, programLoad } from "./fold";
import { tableCount, tableTake } from "./table";

const progRecs = new StaticArray<usize>(MAX_PROGRAMS);
const progCount = new StaticArray<u32>(MAX_PROGRAMS);
const progBytes = new StaticArray<u32>(MAX_PROGRAMS);
let result: usize = 0;

/** The block the last groupRange() wrote (allocated in this instance's heap; the host frees it). */
export function groupResult(): usize {
  return result;
}

@inline function word(spec: usize, i: u32): u32 {
  return load<u32>(spec + (<usize>i << 2));
}

function freePrograms(n: u32): void {
  for (let p: u32 = 0; p < n; p++) heap.free(unchecked(progRecs[p]));
}

/**
 * Matches `plan` over rows [from, to) of segment `seg` (as evaluateRange) and folds them by each
 * program of `spec` (group/format.ts). Returns the result block's size in bytes (its address:
 * groupResult()) or an E_* code.
 */
export function groupRange(seg: usize, plan: usize, planLen: u32, spec: usize, specLen: u32, from: u32, to: u32): i32 {
  result = 0;
  if (specLen < SPEC_HEADER_WORDS || word(spec, 0) != SPEC_MAGIC) return E_BAD_PLAN;
  const np = word(spec, 1);
  const flags = word(spec, 2);
  if (np > MAX_PROGRAMS) return E_BAD_PLAN;
  const rows = hdr(<usize>load<u32>(seg + DESC_BLOB), H_ROWS);
  const end = min(rows, to);
  const k: u32 = end > from ? end - from : 0;
  const e = matchRange(seg, plan, planLen, k | ALL_MATCHES, from, to);
  if (e < 0) return e;
  const matches = topkEntries();
  const n = topkCount();
  foldFallbackReset();
  let at = SPEC_HEADER_WORDS;
  let bytes: usize = ((<usize>(RESULT_HEADER_WORDS + np * PROGRAM_OUT_WORDS) << 2) + 7) & ~7;
  for (let p: u32 = 0; p < np; p++) {
    const recBytes = programLoad(spec, at, specLen);
    if (recBytes == 0) {
      freePrograms(p);
      return E_BAD_PLAN;
    }
    at += word(spec, at);
    foldMatches(matches, n, recBytes);
    unchecked((progCount[p] = tableCount()));
    unchecked((progRecs[p] = tableTake()));
    unchecked((progBytes[p] = recBytes));
    bytes += <usize>tableCount() * recBytes;
  }
  const withMatches = (flags & GF_MATCHES) != 0;
  const matchesOff = bytes;
  if (withMatches) bytes += <usize>n << 3;
  const out = heap.alloc(bytes);
  store<u32>(out, lastTotal());
  store<u32>(out + 4, np);
  store<u32>(out + 8, foldFallback() ? RF_FALLBACK : 0);
  store<u32>(out + 12, withMatches ? n : 0);
  store<u32>(out + 16, <u32>matchesOff);
  let off: usize = ((<usize>(RESULT_HEADER_WORDS + np * PROGRAM_OUT_WORDS) << 2) + 7) & ~7;
  for (let p: u32 = 0; p < np; p++) {
    const h = out + (<usize>(RESULT_HEADER_WORDS + p * PROGRAM_OUT_WORDS) << 2);
    const size = <usize>unchecked(progCount[p]) * unchecked(progBytes[p]);
    store<u32>(h, unchecked(progCount[p]));
    store<u32>(h + 4, unchecked(progBytes[p]));
    store<u32>(h + 8, <u32>off);
    store<u32>(h + 12, 0);
    memory.copy(out + off, unchecked(progRecs[p]), size);
    off += size;
  }
  freePrograms(np);
  if (withMatches) memory.copy(out + matchesOff, matches, <usize>n << 3);
  result = out;
  return <i32>bytes;
}
