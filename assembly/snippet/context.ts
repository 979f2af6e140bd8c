// The candidates of one pick (a field, or the whole document with limits_per_field=0): passages,
// their context-token pool, the top weights and the keywords seen so far.

import * as F from "./format";
import { IntList, Pool, Recs } from "./store";

/** Keyword weights (codepoints), the context's mask of seen keywords and best single-keyword weights. */
export class Context {
  passages: Recs = new Recs();
  pool: Pool = new Pool();
  top: IntList = new IntList();
  qwords: u32 = 0;
  qwordWeights: StaticArray<i32> = new StaticArray<i32>(32);

  clear(): void {
    this.passages.clear();
    this.pool.clear();
    this.top.clear();
    this.qwords = 0;
    for (let i = 0; i < 32; i++) this.qwordWeights[i] = 0;
  }
}

export function log2(v: u32): i32 {
  return 32 - <i32>clz<u32>(v);
}

@inline export function weightOf(r: Recs, p: u32): i32 {
  return r.get(p, F.P_QCOUNT) + r.get(p, F.P_QWEIGHT) * r.get(p, F.P_LCS) + r.get(p, F.P_MINGAP);
}

