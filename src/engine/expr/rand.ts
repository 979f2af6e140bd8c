/**
 * RAND() in expressions: Manticore's manual gives "a random float between 0 and 1", optionally seeded by a
 * constant integer or an integer attribute (sphinxexpr.cpp Expr_Rand_c, a float).
 * - RAND(): the row's id hashed with the statement's seed (OPTION rand_seed, else a fresh one a statement):
 *   the very value ORDER BY RAND() sorts by (the core's RAND_ID, assembly/rank/rand-id.ts), so a select-list
 *   RAND() and ORDER BY RAND() (or ORDER BY its alias) of one statement agree.
 * - RAND(attr or expression): searchd's xorshift64* of the value, one step, over UINT64_MAX (its values).
 * - RAND(constant): the row's id hashed with that seed: the same seed gives the same values (searchd steps one
 *   generator from it in match order, which no two layouts share).
 */
import type { Expr } from '../../sql/ast.js';
import type { ExprContext } from './compile.js';
import { exprError } from './errors.js';
import { toBig, type CompiledExpr } from './values.js';

/** murmur3's 32-bit finaliser, as rand-id.ts. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The core's RAND_ID of an id under a seed: a float in [0, 1). */
export function randOfId(seed: number, id: bigint): number {
  const lo = Number(id & 0xffffffffn), hi = Number((id >> 32n) & 0xffffffffn);
  return fmix(fmix(lo ^ seed) ^ Math.imul(hi ^ 0x9e3779b9, 0x27d4eb2f) ^ seed) / 4294967296;
}

/** A fresh seed, a statement's when no OPTION rand_seed names one. */
export function freshSeed(): number {
  return (Math.random() * 0x100000000) >>> 0;
}

const MASK64 = (1n << 64n) - 1n;

/** searchd's XorShift64Star from a state, as a fraction of UINT64_MAX. */
export function xorShiftRand(state: bigint): number {
  let x = BigInt.asUintN(64, state);
  x ^= x >> 12n;
  x = (x ^ (x << 25n)) & MASK64;
  x ^= x >> 27n;
  return Number((x * 2685821657736338717n) & MASK64) / 18446744073709551615;
}

/** RAND(constant)'s seed: the constant's low 32 bits (an ORDER BY formula's core code takes it too, sort-code.ts). */
export function constantSeed(arg: CompiledExpr): number {
  return Number(BigInt.asUintN(32, toBig(arg.eval({ docId: 0n, weight: 0, attrs: new Map() }))));
}

type Compile = (e: Expr, ctx: ExprContext) => CompiledExpr;

export function randCall(e: Expr & { kind: 'call' }, ctx: ExprContext, compile: Compile): CompiledExpr {
  if (e.args.length > 1) throw exprError(ctx.table, `rand() called with ${e.args.length} args, either 0 or 1 args expected`);
  if (!e.args.length) {
    const seed = ctx.randSeed ?? freshSeed();
    return { type: 'float', eval: (r) => Math.fround(randOfId(seed, r.docId)) };
  }
  const arg = compile(e.args[0]!, ctx);
  if (arg.type !== 'int' && arg.type !== 'bigint' && arg.type !== 'float') throw exprError(ctx.table, 'rand() argument must be numeric');
  const lit = e.args[0]!;
  if (lit.kind === 'literal' && (lit.value.kind === 'int' || lit.value.kind === 'float')) {
    const seed = constantSeed(arg);
    return { type: 'float', eval: (r) => Math.fround(randOfId(seed, r.docId)) };
  }
  return { type: 'float', eval: (r) => Math.fround(xorShiftRand(toBig(arg.eval(r)))) };
}
