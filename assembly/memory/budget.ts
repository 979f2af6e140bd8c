// The working-memory budget of one core call (a query's matching and grouping over one segment or
// row range): the host sets the cap once (budgetSet; 0: none); each call starts at zero (budgetBegin)
// and the structures that grow with the data charge it before they grow: the match list, the group
// tables, the result block. Past the cap the call traps with budgetExceeded() set, before the
// allocator is touched, so the heap stays whole; what the call had allocated is held by module
// globals that the next call frees or reuses (group/table.ts tableReset, group/run.ts), never lost.

let cap: usize = 0;
let used: usize = 0;
let over: bool = false;

/** Sets the cap in bytes for every later call (0: none). */
export function budgetSet(bytes: u32): void {
  cap = <usize>bytes;
  over = false;
}

/** Whether the last call stopped at the cap (the host's error says so). */
export function budgetExceeded(): bool {
  return over;
}

/** Starts a call's account. */
export function budgetBegin(): void {
  used = 0;
  over = false;
}

/** Charges `bytes` the call is about to take; traps past the cap. */
export function budgetCharge(bytes: usize): void {
  if (cap == 0) return;
  used += bytes;
  if (used > cap) {
    over = true;
    unreachable();
  }
}
