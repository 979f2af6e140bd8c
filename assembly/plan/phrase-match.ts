// A phrase of plain terms decided on one row from its children's decoded hits (no FSM): the fast
// path match.ts takes for phrases without repeated keywords, which also records the fields the
// phrase occurs in for the pruning bound (prune.ts nodeBound reads N_PFIELDS / N_PDOC).

import { FIELD_END_BIT, TERMINATED } from "../util/codes";
import { cursorTf, cursorPositions, INLINE_HITS } from "../postings/cursor";
import { nget, nset, child, N_NCHILD, N_CURSOR, N_QPOS, N_PFIELDS, N_PDOC, N_CONSTRAINED } from "./node";
import { termAccepts } from "./hits";

/** phraseMatch()'s answer when a row's hits are too many to hold two children's at once. */
export const PHRASE_UNKNOWN: i32 = -1;

/**
 * Whether a simplePhrase() node's children, all on row d, hold the phrase: some hit of child 0
 * at p with every child i at p + (qpos_i - qpos_0), same field, each hit one its term accepts.
 * Returns the 16-bit set of fields it occurs in (0 = not on this row), stopping at the first
 * occurrence unless `allFields`; PHRASE_UNKNOWN when a child's row has more hits than a cursor
 * keeps decoded (the FSM decides then). Without repeated keywords this is phraseFsm's decision.
 */
export function phraseMatch(n: usize, d: u32, allFields: bool): i32 {
  const k = nget(n, N_NCHILD);
  // per child (4 words): its hits, their count, its offset from child 0, a read index that only
  // moves forward (targets ascend with child 0's hit)
  const tab = scratch(k << 2);
  const q0 = nget(child(n, 0), N_QPOS);
  let limited = false;
  for (let i: u32 = 0; i < k; i++) {
    const ci = child(n, i);
    const c = <usize>nget(ci, N_CURSOR);
    const tf = cursorTf(c);
    if (tf > INLINE_HITS) return PHRASE_UNKNOWN;
    const e = tab + (<usize>i << 4);
    store<u32>(e, <u32>cursorPositions(c));
    store<u32>(e, tf, 4);
    store<u32>(e, nget(ci, N_QPOS) - q0, 8);
    store<u32>(e, 0, 12);
    if (nget(ci, N_CONSTRAINED) != 0) limited = true;
  }
  const p0 = <usize>load<u32>(tab);
  const tf0 = load<u32>(tab, 4);
  let found: u32 = 0;
  for (let h: u32 = 0; h < tf0; h++) {
    const hp = load<u32>(p0 + (<usize>h << 2));
    if (limited && !termAccepts(child(n, 0), hp)) continue;
    const base = hp & ~FIELD_END_BIT;
    let all = true;
    for (let i: u32 = 1; i < k; i++) {
      const e = tab + (<usize>i << 4);
      const pi = <usize>load<u32>(e);
      const tfi = load<u32>(e, 4);
      const target = base + load<u32>(e, 8);
      let j = load<u32>(e, 12);
      while (j < tfi && (load<u32>(pi + (<usize>j << 2)) & ~FIELD_END_BIT) < target) j++;
      store<u32>(e, j, 12);
      // the index stays on a hit a later hit of child 0 may still use
      if (j >= tfi) return finish(n, d, allFields, found);
      const hj = load<u32>(pi + (<usize>j << 2));
      if ((hj & ~FIELD_END_BIT) != target || (limited && !termAccepts(child(n, i), hj))) {
        all = false;
        break;
      }
    }
    if (!all) continue;
    const f = hp >>> 24;
    found |= f < 15 ? <u32>1 << f : <u32>0x8000;
    if (!allFields) break;
  }
  return finish(n, d, allFields, found);
}

/** Records phraseMatch()'s fields on the node (for nodeBound) and returns them. */
function finish(n: usize, d: u32, allFields: bool, found: u32): i32 {
  nset(n, N_PDOC, allFields ? d : TERMINATED);
  nset(n, N_PFIELDS, found);
  return <i32>found;
}

let scratchPtr: usize = 0;
let scratchWords: u32 = 0;
function scratch(words: u32): usize {
  if (words > scratchWords) {
    if (scratchPtr != 0) heap.free(scratchPtr);
    scratchWords = words < 64 ? 64 : words;
    scratchPtr = heap.alloc(<usize>scratchWords << 2);
  }
  return scratchPtr;
}
