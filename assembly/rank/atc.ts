// atc, aggregate term closeness, as Manticore's RankerState_Expr_fn::UpdateATC / TermTC
// (src/sphinxsearch.cpp): per field, log(1 + Σ idf(t)·TC(t)) where TC sums, over the nearest
// other query words within a window of hits on each side, idf(t') / |Δpos|^1.75 (a quarter for
// the same word). Hits go through a ring buffer of 30 and are scored ten at a time.

import { XF_FIELDS, XF_QPOS, qposIdf } from "./factor-query";

/** Manticore's XRANK_ATC_WINDOW_LEN, XRANK_ATC_BUFFER_LEN, XRANK_ATC_DUP_DIV, XRANK_ATC_EXP. */
const WINDOW: i32 = 10;
const BUFFER: i32 = 30;
const DUP_DIV: f32 = 0.25;
const EXP: f64 = 1.75;

/** |Δpos|^1.75 for small distances, filled once (pow is the costly step of a hit's closeness). */
const POW_TABLE: i32 = 1024;
const powTable = new StaticArray<f32>(POW_TABLE);
for (let d: i32 = 0; d < POW_TABLE; d++) unchecked((powTable[d] = <f32>Math.pow(<f64><f32>d, EXP)));

export const atc = new StaticArray<f32>(XF_FIELDS);
const ringPos = new StaticArray<i32>(BUFFER);
const ringQpos = new StaticArray<u32>(BUFFER);
const terms = new StaticArray<f32>(XF_QPOS);
let start: i32 = 0;
let count: i32 = 0;
let atcField: u32 = 0;
let headDone = false;
let enabled = false;
let maxQpos: i32 = 0;

/** ATC is computed when the formula uses it and the query has more than one distinct word. */
export function atcQuery(want: bool, uniqueWords: i32, maxQ: i32): void {
  enabled = want && uniqueWords > 1;
  maxQpos = maxQ;
}

export function atcReset(): void {
  for (let f: u32 = 0; f < XF_FIELDS; f++) unchecked((atc[f] = 0));
  for (let q: u32 = 0; q < XF_QPOS; q++) unchecked((terms[q] = 0));
  start = 0;
  count = 0;
  atcField = 0;
  headDone = false;
}

@inline function idfOf(q: u32): f32 {
  return q < XF_QPOS ? unchecked(qposIdf[q]) : 0;
}

/** Closeness of buffered hit `at` to its neighbours on one side. */
function termTC(at: i32, left: bool): f32 {
  if ((left && at == start) || (!left && at == start + count - 1)) return 0;
  const pos = unchecked(ringPos[at % BUFFER]);
  const q = unchecked(ringQpos[at % BUFFER]);
  let seen: u64 = 0;
  let tc: f32 = 0;
  const step: i32 = left ? -1 : 1;
  const from = at + step;
  const to = left ? max(from - WINDOW, start - 1) : min(from + WINDOW, start + count);
  let found: i32 = 0;
  for (let i = from; i != to && found != maxQpos; i += step) {
    const cq = unchecked(ringQpos[i % BUFFER]);
    const cpos = unchecked(ringPos[i % BUFFER]);
    const bit: u64 = cq < 64 ? <u64>1 << <u64>cq : 0;
    if ((seen & bit) != 0 || pos == cpos) continue;
    const d = abs(pos - cpos);
    const dist = d < POW_TABLE ? unchecked(powTable[d]) : <f32>Math.pow(<f64><f32>d, EXP);
    let t: f32 = idfOf(cq) / dist;
    if (q == cq) t *= DUP_DIV;
    tc += t;
    seen |= bit;
    found++;
  }
  return tc;
}

/** Scores the buffered hits not yet scored; on a field flush, writes the field's atc. */
function flush(field: bool): void {
  if (count == 0) return;
  let from = start + WINDOW;
  let to = min(from + WINDOW, start + count);
  if (!headDone) from = start;
  if (field) to = start + count;
  for (let i = from; i < to; i++) {
    const tc = termTC(i, true) + termTC(i, false);
    const q = unchecked(ringQpos[i % BUFFER]);
    if (q < XF_QPOS) unchecked((terms[q] += tc));
  }
  headDone = true;
  if (!field) return;
  let sum: f32 = 0;
  for (let q: i32 = 0; q <= maxQpos && q < <i32>XF_QPOS; q++) {
    sum += unchecked(terms[q]) * unchecked(qposIdf[q]);
    unchecked((terms[q] = 0));
  }
  unchecked((atc[atcField] = <f32>Math.log(<f64>(<f32>1 + sum))));
  start = 0;
  count = 0;
  headDone = false;
}

/** One hit of field `f` at in-field position `pos`, query position `q`. */
export function atcUpdate(f: u32, pos: i32, q: u32): void {
  if (!enabled) return;
  if (atcField != f || count == BUFFER) {
    const switched = atcField != f;
    flush(switched);
    if (switched) atcField = f;
    if (count == BUFFER) {
      start = (start + WINDOW) % BUFFER;
      count -= WINDOW;
    }
  }
  const at = (start + count) % BUFFER;
  unchecked((ringPos[at] = pos));
  unchecked((ringQpos[at] = q));
  count++;
}

/** The row's last field (Manticore's Finalize flush). */
export function atcFinish(): void {
  if (enabled) flush(true);
}
