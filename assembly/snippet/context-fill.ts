// The context tokens of the kept passages (split from extract.ts, which keeps the window and the
// passage weighing): the Extractor leaves a kept passage's context pending (snapshot) because the
// record is replaced often while the window slides; this counts them once, for the passages left
// at the pick, from the token stream the Extractor walked.

import { Context } from "./context";
import * as F from "./format";
import { WordVec } from "../memory/heap";

/** P_AOFF of a kept passage whose context tokens fillPassageContext has not counted yet (P_BOFF holds its window's start). */
export const CONTEXT_PENDING: i32 = -1;

/**
 * The context tokens of every kept passage still without them (snapshot), into the pool: the
 * tokens before the first keyword, nearest first, as long as they fit the words kept before it,
 * and the same after the last; and the codepoints and words between. Manticore's passage copy
 * does this when it keeps a passage. `bases` holds, per field, where its token 0 lies in the stream.
 */
export function fillPassageContext(ctx: Context, bases: WordVec): void {
  const ps = ctx.passages;
  const pool = ctx.pool;
  for (let r: u32 = 0; r < ps.n; r++) {
    if (ps.get(r, F.P_AOFF) != CONTEXT_PENDING) continue;
    const base = <usize>bases.at(<u32>ps.get(r, F.P_FIELD));
    // the window's first token when the passage was kept: the after-loop's bound counts from it
    const sStart = ps.get(r, F.P_BOFF);
    let cb = ps.get(r, F.P_CODES);
    let wb = ps.get(r, F.P_WORDS);
    const start = ps.get(r, F.P_START);
    const aBefore = ps.get(r, F.P_ABEFORE);
    const aAfter = ps.get(r, F.P_AAFTER);
    ps.set(r, F.P_BOFF, <i32>pool.size());
    let nb = 0;
    let cnt = 0;
    for (let i = ps.get(r, F.P_SLIMIT) - 1; i >= start; i--) {
      const t = base + <usize>i * F.TOKEN_WORDS * 4;
      const len = load<i32>(t);
      const word: i32 = (load<u32>(t, 4) & F.TOK_WORD) ? 1 : 0;
      cb -= len;
      wb -= word;
      if (nb + word <= aBefore) { pool.push(len, word); nb += word; cnt++; } else break;
    }
    ps.set(r, F.P_BLEN, cnt);
    ps.set(r, F.P_AOFF, <i32>pool.size());
    let na = 0;
    cnt = 0;
    const end = ps.get(r, F.P_TOKENS) + sStart;
    for (let i = ps.get(r, F.P_ELIMIT) + 1; i < end; i++) {
      const t = base + <usize>i * F.TOKEN_WORDS * 4;
      const len = load<i32>(t);
      const word: i32 = (load<u32>(t, 4) & F.TOK_WORD) ? 1 : 0;
      cb -= len;
      wb -= word;
      if (na + word <= aAfter) { pool.push(len, word); na += word; cnt++; } else break;
    }
    ps.set(r, F.P_ALEN, cnt);
    ps.set(r, F.P_CBETWEEN, cb);
    ps.set(r, F.P_WBETWEEN, wb);
  }
}
