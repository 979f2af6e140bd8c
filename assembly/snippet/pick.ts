// One call per document: candidate passages of every field marked for extraction, then the pick
// per field (limits_per_field) or over the whole document. See format.ts for the layouts.

import * as F from "./format";
import { Extractor } from "./extract";
import { selectPassages } from "./select";
import { Recs } from "./store";

const ex = new Extractor();
const show = new Recs();

/**
 * `tokens`: the stream; `fields`/`nFields`: the field table; `params`: parameters then keyword
 * weights; `out`: room for `outCap` passages. Returns the number of passages written to `out`
 * (field, first token, token count, weight), grouped as picked and in document order within a pick.
 */
export function snippetPick(tokens: usize, fields: usize, nFields: u32, params: usize, out: usize, outCap: u32): i32 {
  ex.around = load<i32>(params);
  ex.forceAll = load<i32>(params, 4) != 0;
  ex.useBoundaries = load<i32>(params, 8) != 0;
  ex.spz = load<i32>(params, 12) != 0;
  const perField = load<i32>(params, 16) != 0;
  const gLimit = load<i32>(params, 20);
  const gWords = load<i32>(params, 24);
  const gSnippets = load<i32>(params, 28);
  const found = load<u32>(params, 32);
  ex.nTerms = min(load<u32>(params, 36), 32);
  ex.weights = params + <usize>F.PARAM_WORDS * 4;
  show.clear();
  ex.ctx.clear();
  for (let f: u32 = 0; f < nFields; f++) {
    const fp = fields + <usize>f * F.FIELD_WORDS * 4;
    if (!load<i32>(fp, 24)) continue;
    const limit = load<i32>(fp, 12);
    const words = load<i32>(fp, 16);
    const snippets = load<i32>(fp, 20);
    if (perField) ex.ctx.clear();
    ex.setup(<i32>f, limit, words, snippets, load<i32>(fp, 8));
    const own = <usize>load<u32>(fp, 28);
    ex.run(own ? own : tokens, own ? 0 : load<u32>(fp), load<u32>(fp, 4));
    if (perField) ex.fillContext();
    if (perField) selectPassages(ex.ctx, show, limit, words, snippets, ex.forceAll, ex.useBoundaries, found, ex.weights, ex.nTerms);
  }
  if (!perField) ex.fillContext();
  if (!perField) selectPassages(ex.ctx, show, gLimit, gWords, gSnippets, ex.forceAll, ex.useBoundaries, found, ex.weights, ex.nTerms);
  const n = min(show.n, outCap);
  for (let i: u32 = 0; i < n; i++) {
    const o = out + <usize>i * F.OUT_WORDS * 4;
    store<i32>(o, show.get(i, F.P_FIELD));
    store<i32>(o, show.get(i, F.P_START), 4);
    store<i32>(o, show.get(i, F.P_TOKENS), 8);
    store<i32>(o, show.get(i, F.P_QCOUNT) + show.get(i, F.P_QWEIGHT) * show.get(i, F.P_LCS) + show.get(i, F.P_MINGAP), 12);
  }
  return <i32>n;
}
