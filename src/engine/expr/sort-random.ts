/**
 * ORDER BY RAND(): Manticore's @random sort gives every match a pseudo-random key from a generator
 * seeded by `OPTION rand_seed=N` (the low 32 bits, searchdsql.cpp: DWORD) or afresh for every query.
 * Here the key is an ordinary expression sort key: the core's RAND_ID opcode (assembly/rank/expr.ts)
 * hashes the seed with the row's id into a float in [0, 1), what Manticore's RAND() returns. The same
 * seed over the same rows gives the same order (segments merged in between too, since the id and not
 * the row position is hashed), another seed another order, and the page (LIMIT/OFFSET, max_matches) is
 * cut from that order.
 */
import type { OptionValue } from '../../sql/ast.js';
import type { SortKey } from '../../index/types.js';
import { X } from '../../index/rank-expr/rank-expr-words.js';
import { requireNumber } from '../values/sql-values.js';
import { freshSeed } from './rand.js';

/** The seed: OPTION rand_seed's low 32 bits (a negative value wraps, as DWORD), else a fresh one. */
export function randSeed(option: OptionValue | undefined): number {
  if (!option) return freshSeed();
  const v = requireNumber('rand_seed', option);
  return Number(BigInt.asUintN(32, BigInt(Math.trunc(v))));
}

/** The sort key: the core computes it per row of each segment as any expression key. */
export function randomSortKey(seed: number, desc = false): SortKey {
  return { attr: 'rand()', desc, code: [X.RAND_ID, seed >>> 0] };
}
