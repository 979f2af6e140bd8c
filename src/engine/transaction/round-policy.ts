/**
 * When a table's next group-commit round goes (transaction-group.ts), from three counts: the statements
 * queued, the statements owed (acknowledged by a settled round, their clients' next ones not back yet)
 * and the rounds in flight.
 *
 * One round in flight made each round a chain of its flushed write and the turnaround after it (replies,
 * the clients' next statements, their parse): the disk idle during the turnaround, the CPU idle during the
 * write (session 18, ins18e: 16 clients, 13.8-14.8 statements a round, a 0.74-0.86 ms write and a 0.9-1.3 ms
 * turnaround). A second round in flight overlaps them: while one group of clients' round is written, the
 * other group's statements come back and are parsed, and their round's record waits in the write log for
 * the next write, which starts the moment the first ends. A second round issued with whatever had arrived
 * broke rounds into ones and twos (ins18e's trial: 9,554/10,505 -> 4,528/3,393 INSERTs/s; session 7 and 8
 * likewise), so a round goes beside another only when its group is back whole (nothing owed) and holds
 * SECOND_MIN statements or more; and the two groups form by themselves: with nothing in flight and
 * SPLIT_MIN or more statements queued and owed, a round goes once half of them are queued, and the other
 * half follow as the second round.
 *
 * Two groups pay only while a write is shorter than the turnaround of all the clients: with write W (about
 * the same for 8 statements as for 16: a flush's latency) and turnaround T of all N statements, one group
 * cycles in W + T, two in max(2W, W + T/2), better exactly when W < T. On a loaded machine (writes of 4-5 ms
 * behind other engineers' I/O, turnarounds of 1-2) two groups halve the statements a write: SplitGauge keeps
 * both times and splits only while W < T.
 */

/** Rounds of a table in flight at once (issued, not yet settled). */
export const MAX_IN_FLIGHT = 2;

/** Statements (queued and owed) from which a round with nothing in flight goes at half: the clients split in two groups. */
export const SPLIT_MIN = 8;

/** The fewest statements a round issued while another is in flight holds: fewer wait for it to settle and join the next. */
export const SECOND_MIN = 4;

/**
 * Whether the next round goes now (else it waits for more statements, or for its gather window:
 * roundOnTimeout); `split`: the clients go as two groups (SplitGauge), else as one, one round in flight.
 */
export function roundReady(queued: number, owed: number, inFlight: number, split: boolean): boolean {
  if (inFlight >= MAX_IN_FLIGHT || queued === 0) return false;
  if (inFlight > 0) return split && owed === 0 && queued >= SECOND_MIN;
  const all = queued + owed;
  return split && all >= SPLIT_MIN ? 2 * queued >= all : owed === 0;
}

/**
 * Whether a round goes when its gather window ends with statements still owed (a client late, or gone):
 * with nothing in flight, yes, with what is queued; beside a round in flight only with SECOND_MIN
 * statements, split (fewer wait for its settle and join the round after it).
 */
export function roundOnTimeout(queued: number, inFlight: number, split: boolean): boolean {
  if (inFlight >= MAX_IN_FLIGHT || queued === 0) return false;
  return inFlight === 0 || (split && queued >= SECOND_MIN);
}

/** Weight of the newest sample in SplitGauge's moving averages. */
const ALPHA = 0.2;

/**
 * A table's recent round times: its write (issue, or the previous round's settle when it waited behind
 * one, to its own settle) and its turnaround per statement (a round's settle to its clients' next
 * statements all queued), as moving averages; split() says whether two groups beat one (see above).
 */
export class SplitGauge {
  #writeMs = NaN;
  #turnMsPerStmt = NaN;

  noteWrite(ms: number): void {
    this.#writeMs = Number.isNaN(this.#writeMs) ? ms : this.#writeMs + ALPHA * (ms - this.#writeMs);
  }

  /** `stmts` statements acknowledged together came back (or their gather window ended) `ms` after. */
  noteTurnaround(ms: number, stmts: number): void {
    if (stmts <= 0) return;
    const per = ms / stmts;
    this.#turnMsPerStmt = Number.isNaN(this.#turnMsPerStmt) ? per : this.#turnMsPerStmt + ALPHA * (per - this.#turnMsPerStmt);
  }

  /** Whether `clients` statements go faster as two groups: a write shorter than their whole turnaround (false until both are measured). */
  split(clients: number): boolean {
    return clients >= SPLIT_MIN && this.#writeMs < this.#turnMsPerStmt * clients;
  }
}
