/**
 * ORDER BY RAND(): Manticore's @random sort gives every match a pseudo-random key from a generator
 * seeded by `OPTION rand_seed=N` (the low 32 bits, searchdsql.cpp: DWORD) or afresh for every query.
 * Here the key of a row is a hash of the seed and the row's id: the same seed over the same rows gives
 * the same order (segments merged in between too, since the id and not the row position is hashed),
 * another seed another order, and the page (LIMIT/OFFSET, max_matches) is cut from that order.
 */
import type { OptionValue } from '../../sql/ast.js';
import type { SortKey } from '../../index/types.js';
import { requireNumber } from '../sql-values.js';

/** murmur3's 32-bit finaliser: every input bit reaches every output bit. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The row's key: the id's two words mixed with the seed, 0 .. 2^32-1. */
export function randomKey(seed: number, lo: number, hi: number): number {
  return fmix(fmix(lo ^ seed) ^ Math.imul(hi ^ 0x9e3779b9, 0x27d4eb2f) ^ seed);
}

/** The seed: OPTION rand_seed's low 32 bits (a negative value wraps, as DWORD), else a fresh one. */
export function randSeed(option: OptionValue | undefined): number {
  if (!option) return (Math.random() * 0x100000000) >>> 0;
  const v = requireNumber('rand_seed', option);
  return Number(BigInt.asUintN(32, BigInt(Math.trunc(v))));
}

/** The sort key: a number per row, computed here from the id column in core memory. */
export function randomSortKey(seed: number): SortKey {
  return {
    attr: 'rand()', desc: false,
    rowNumbers: (seg) => {
      const out = new Float64Array(Math.max(seg.rows, 2));
      const words = seg.words();
      const base = seg.columnPtr(0) >>> 2;
      for (let row = 0; row < seg.rows; row++) out[row] = randomKey(seed, words[base + 2 * row]!, words[base + 2 * row + 1]!);
      return out;
    },
  };
}
