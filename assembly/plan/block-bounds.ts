// Block-level bounds of the top-K pruning (prune.ts, whose file header states the bound): a plain
// term's or an exactGuide() phrase's bound from a block's block-max word, and the skipping of whole
// blocks that cannot beat the K-th weight, counted from their row ids alone.

import {
  cursorCountRest, cursorBlock, cursorBlockMax, cursorNumBlocks, blockLastRow, blockRows, blockMaxAt, loadBlock, cursorRow,
} from "../postings/cursor";
import { OP_PHRASE } from "./format";
import { nget, nset, child, N_OP, N_DOC, N_NCHILD, N_CURSOR, N_FMASK, N_IDF, N_GUIDE } from "./node";
import { fields16, termBm25, topWeights, weightBound } from "./prune";

/**
 * The bound of every row of a plain term's current block, from its block-max word: a row with tf
 * hits is in at most tf fields; with a negative idf the fewest hits weigh most.
 */
export function blockBound(term: usize): i32 {
  return wordBound(term, cursorBlockMax(<usize>nget(term, N_CURSOR)));
}

/** The BM25 share of a plain term's block from its block-max word (a positive idf weighs most at maxTf, a negative one least at 0: an OR row may lack the term). */
export function wordBm25(term: usize, word: u32): f32 {
  const idf = reinterpret<f32>(nget(term, N_IDF));
  return idf >= 0 ? termBm25(word & 0xffff, idf) : 0;
}

/** The field part of a plain term's block from its block-max word: a row with tf hits is in at most tf fields. */
export function wordFields(term: usize, word: u32): i32 {
  const set = (word >>> 16) & fields16(nget(term, N_FMASK));
  return topWeights(set, min(word & 0xffff, <u32>popcnt(set)));
}

/** The bound of a block whose block-max word is `word` of a plain term, or of an exactGuide() phrase's guide (guideBound()). */
function wordBound(n: usize, word: u32): i32 {
  if (nget(n, N_OP) == OP_PHRASE) {
    const set = (word >>> 16) & 0xffff;
    return guideBound(n, guideSum(n, 1), set, min(word & 0xffff, <u32>popcnt(set)));
  }
  return termWordBound(n, word);
}

/** The pair's tf above which guideSum() takes this one (see there). */
const GUIDE_TF_CAP: u32 = 64;

/**
 * The BM25 sum of a row of an exactGuide() phrase `n` (two plain words, its guide the pair of them)
 * whose pair has `tf` hits there, at most: each word has at least tf hits, so a negative idf's share is
 * at most termBm25(tf, idf) (it falls as tf grows), a positive one's at most its idf (tf/(tf+1.2) < 1
 * in f32 too); summed in rowBound()'s order. Above GUIDE_TF_CAP hits the cap's share is taken: tf/(tf+1.2)
 * grows by over 2e-4 a step there, far above f32's rounding, so it stays an upper bound.
 */
export function guideSum(n: usize, tf: u32): f32 {
  const k = nget(n, N_NCHILD);
  const t = min(max(tf, 1), GUIDE_TF_CAP);
  let sum: f32 = 0;
  for (let i: u32 = 0; i < k; i++) {
    const idf = reinterpret<f32>(nget(child(n, i), N_IDF));
    sum += idf > 0 ? idf : termBm25(t, idf);
  }
  return sum;
}

/**
 * The bound of a row of an exactGuide() phrase `n` with BM25 sum at most `sum` (guideSum()) whose
 * pair's hits are in at most `j` fields among `set`: rowBound() of the phrase loosened to what the
 * pair alone tells. Its field part, k * topWeights() of the phrase's fields for the fewest word hits,
 * is at most k * topWeights(set, j): the phrase occurs where the pair does, once a pair hit.
 */
export function guideBound(n: usize, sum: f32, set: u32, j: u32): i32 {
  return weightBound(sum, <i32>nget(n, N_NCHILD) * topWeights(set, j));
}

/** The bound of a block of plain term `term` whose block-max word is `word`. */
function termWordBound(term: usize, word: u32): i32 {
  const idf = reinterpret<f32>(nget(term, N_IDF));
  const maxTf = word & 0xffff;
  const set = (word >>> 16) & fields16(nget(term, N_FMASK));
  const nf = <u32>popcnt(set);
  if (idf >= 0) return weightBound(termBm25(maxTf, idf), topWeights(set, min(maxTf, nf)));
  let best = weightBound(termBm25(1, idf), topWeights(set, 1));
  for (let j: u32 = 2; j <= nf && j <= maxTf; j++) best = max(best, weightBound(termBm25(j, idf), topWeights(set, j)));
  return best;
}

/** True when no row in [lo, hi] is set in the bitmap (0 = none). */
function noneSet(bits: usize, lo: u32, hi: u32): bool {
  if (bits == 0) return true;
  for (let r = lo; r <= hi && (r & 7) != 0; r++) if (((load<u8>(bits + (r >>> 3)) >>> (r & 7)) & 1) != 0) return false;
  let r = (lo + 7) & ~7;
  for (; r + 7 <= hi; r += 8) if (load<u8>(bits + (r >>> 3)) != 0) return false;
  for (; r <= hi; r++) if (((load<u8>(bits + (r >>> 3)) >>> (r & 7)) & 1) != 0) return false;
  return true;
}

/**
 * A plain term standing alone whose current block cannot beat `worst` (or an exactGuide() phrase
 * standing alone whose guide's block cannot): counts the rest of that block (its decoded row ids),
 * then whole blocks after it from their skip entries alone while their bound cannot either, they
 * end before `end` and `deleted` has none of their rows; decodes the block it stops at. Returns
 * the rows counted; the cursor is on the next row to look at (a term stands on it).
 */
export function skipBlocks(term: usize, deleted: usize, end: u32, worst: i32): u32 {
  const guided = nget(term, N_OP) == OP_PHRASE;
  const c = <usize>nget(term, guided ? N_GUIDE : N_CURSOR);
  let n = cursorCountRest(c, deleted, end);
  let b = cursorBlock(c) + 1;
  const nb = cursorNumBlocks(c);
  let lastWord: u32 = 0xffffffff;
  let lastBound: i32 = 0;
  while (b < nb) {
    const word = blockMaxAt(c, b);
    if (word != lastWord) {
      lastWord = word;
      lastBound = wordBound(term, word);
    }
    const last = blockLastRow(c, b);
    if (lastBound > worst || last >= end || !noneSet(deleted, blockLastRow(c, b - 1) + 1, last)) break;
    n += blockRows(c, b);
    b++;
  }
  loadBlock(c, b);
  if (!guided) nset(term, N_DOC, cursorRow(c));
  return n;
}

/** The 16-bit field set (fields16()) of `tf` hits at `hits`. */
export function hitFields16(hits: usize, tf: u32): u32 {
  let found: u32 = 0;
  for (let h: u32 = 0; h < tf; h++) {
    const f = load<u32>(hits + (<usize>h << 2)) >>> 24;
    found |= f < 15 ? <u32>1 << f : <u32>0x8000;
  }
  return found;
}
