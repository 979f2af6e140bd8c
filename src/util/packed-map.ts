/**
 * `items.map(fn)` whose result is always a packed array. V8 gives Array.prototype.map's result a different
 * elements kind by the tier of the code that calls it: interpreted, the builtin builds a packed array;
 * inlined into optimized code (TurboFan), a holey one (checked with %HasHoleyElements, Node 20). An
 * array made by `map` on a statement's path (an INSERT's ids, stored documents, index inputs) so changes
 * its map whenever its maker is optimized or deoptimized, and every optimized reader that saw the other
 * kind deoptimizes ('wrong map') and is compiled again on V8's compiler threads: the group commit's
 * issueRound (20-26 ms a compile) deoptimized at `put.ids[i]` at the start of each phase of
 * `insert-ab --phases 1` (QUARRY_TRACE_ROUNDS aside: --trace-deopt-verbose, transaction-group.ts). A
 * push loop makes a packed array in every tier.
 */
export function mapPacked<T, U>(items: readonly T[], fn: (item: T, i: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) out.push(fn(items[i]!, i));
  return out;
}
