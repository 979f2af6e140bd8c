// groupRange(): the one call per segment (or range of rows) of a grouping query: the plan's matches,
// then each program's fold over them, written as one result block the host reads and frees.

import { E_BAD_PLAN } from "../util/codes";
import { E_BAD_SEGMENT } from "../util/codes";
import { bitIsSet, DESC_BLOB, DESC_DELETED, hdr, H_MAGIC, H_ROWS, H_VERSION, SEGMENT_MAGIC, SEGMENT_VERSION } from "../segment/layout";
import { ALL_MATCHES, lastTotal, matchRange } from "../plan/evaluate";
import { PLAN_HEADER_WORDS, PLAN_MAGIC, P_ALLOW, P_MAGIC, P_NFILTERS, P_ROOT, pword } from "../plan/format";
import { topkCount, topkEntries } from "../rank/topk";
import {
  SPEC_MAGIC, SPEC_HEADER_WORDS, MAX_PROGRAMS, GF_MATCHES, RESULT_HEADER_WORDS, PROGRAM_OUT_WORDS, RF_FALLBACK,
} from "./format";
import { foldFallback, foldFallbackReset, foldLiveRows, foldMatches, programLoad } from "./fold";
import { tableCount, tableTake } from "./table";
import { budgetBegin, budgetCharge } from "../memory/budget";

const progRecs = new StaticArray<usize>(MAX_PROGRAMS);
const progCount = new StaticArray<u32>(MAX_PROGRAMS);
const progBytes = new StaticArray<u32>(MAX_PROGRAMS);
let result: usize = 0;
/** Programs whose records progRecs holds (a call the budget stopped leaves them for the next to free). */
let held: u32 = 0;

/** The block the last groupRange() wrote (allocated in this instance's heap; the host frees it). */
export function groupResult(): usize {
  return result;
}

@inline function word(spec: usize, i: u32): u32 {
  return load<u32>(spec + (<usize>i << 2));
}

function freePrograms(n: u32): void {
  for (let p: u32 = 0; p < n; p++) heap.free(unchecked(progRecs[p]));
  held = 0;
}

/**
 * Matches `plan` over rows [from, to) of segment `seg` (as evaluateRange) and folds them by each
 * program of `spec` (group/format.ts). Returns the result block's size in bytes (its address:
 * groupResult()) or an E_* code.
 */
export function groupRange(seg: usize, plan: usize, planLen: u32, spec: usize, specLen: u32, from: u32, to: u32): i32 {
  result = 0;
  freePrograms(held);
  budgetBegin();
  if (specLen < SPEC_HEADER_WORDS || word(spec, 0) != SPEC_MAGIC) return E_BAD_PLAN;
  const np = word(spec, 1);
  const flags = word(spec, 2);
  if (np > MAX_PROGRAMS) return E_BAD_PLAN;
  const blob = <usize>load<u32>(seg + DESC_BLOB);
  if (hdr(blob, H_MAGIC) != SEGMENT_MAGIC || hdr(blob, H_VERSION) != SEGMENT_VERSION) return E_BAD_SEGMENT;
  if (planLen < PLAN_HEADER_WORDS || pword(plan, P_MAGIC) != PLAN_MAGIC) return E_BAD_PLAN;
  const rows = hdr(blob, H_ROWS);
  const end = min(rows, to);
  const k: u32 = end > from ? end - from : 0;
  // a full scan without filters folds the live rows straight, without a list of matches
  const scan = pword(plan, P_ROOT) == 0 && pword(plan, P_NFILTERS) == 0 && pword(plan, P_ALLOW) == 0 && (flags & GF_MATCHES) == 0;
  let matches: usize = 0;
  let n: u32 = 0;
  let total: u32 = 0;
  if (!scan) {
    const e = matchRange(seg, plan, planLen, k | ALL_MATCHES, from, to);
    if (e < 0) return e;
    matches = topkEntries();
    n = topkCount();
    total = lastTotal();
  }
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
    if (scan) total = foldLiveRows(from, end, <usize>load<u32>(seg + DESC_DELETED), recBytes);
    else foldMatches(matches, n, recBytes);
    unchecked((progCount[p] = tableCount()));
    unchecked((progRecs[p] = tableTake()));
    unchecked((progBytes[p] = recBytes));
    held = p + 1;
    bytes += <usize>tableCount() * recBytes;
  }
  const withMatches = (flags & GF_MATCHES) != 0;
  const matchesOff = bytes;
  if (withMatches) bytes += <usize>n << 3;
  budgetCharge(bytes);
  const out = heap.alloc(bytes);
  if (scan && np == 0) for (let row = from; row < end; row++) if (!bitIsSet(<usize>load<u32>(seg + DESC_DELETED), row)) total++;
  store<u32>(out, total);
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
