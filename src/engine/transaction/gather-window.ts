/**
 * The group commit's gather window (transaction-group.ts): how long a round waits for the statements
 * the last round acknowledged to come back before it is issued without them, by each table's last
 * round's time. The figures that chose each bound are with it.
 */
import type { Table } from '../table.js';

/**
 * How long a round may wait, in event-loop turns (socket reads go on), for the statements the last
 * round acknowledged to come back. Every round has costs of its own (an lmdb commit and its thread
 * hand-overs, a segment to build and later merge): 16 clients x 8,000 single-row INSERTs over MySQL,
 * alternated with the build before (2 in flight, no wait), load 6-8: 2,472 / 1,831 / 1,161 against
 * 1,858 / 1,109 / 981 INSERTs/s, server CPU 0.251 / 0.290 / 0.292 ms an INSERT against 0.289 / 0.304 /
 * 0.318 (2 in flight with the wait: 1,374 / 981 / 1,087, 0.291-0.310 ms). One client waits for nothing:
 * it is the only statement its round expects. The wait sleeps (a timer, cut short by the last statement's
 * arrival) rather than polling turn by turn: session 12, 16 clients x 6,000 INSERTs over MySQL, alternated
 * with the polling build (npm run bench -- insert-ab, load 17-23), 0.155 / 0.158 / 0.160 -> 0.142 / 0.133 /
 * 0.125 ms of protocol-thread CPU an INSERT (throughput within the load's noise).
 */
const GATHER_MS = 1;

/**
 * The longest a round waits for the statements expected back, when the table's last round took that
 * long (issue to settle: its commit, its fsyncs, the thread hand-overs). A statement that misses a round
 * waits for that round's commit and then its own, so waiting up to one commit's time for it costs the
 * round's clients no more than its separate commit would cost it, and saves that commit (an lmdb
 * commit and fsyncs, a segment append). On a quiet machine commits take about GATHER_MS and the window
 * stays there; on a loaded one (commits of 5-25 ms, the clients scheduled late) the 1 ms window issued
 * a round with the few statements back by then and the rest in the next: 16 clients x 6,000 single-row
 * INSERTs over MySQL, load 15-18, rounds of 500: 262-270 of 16 statements and 77-81 of one with the
 * fixed 1 ms, 389-420 and 23-31 with 4 ms. Session 23: the window runs from the last arrival while statements
 * still come (up to MAX_GATHER_MS from the start); from the first, it ended 30% of 16-client rounds at load
 * 10-16 (QUARRY_TRACE_ROUNDS=1), the late clients a round later. insert-ab --statements 2000 --phases 1, 5
 * alternated pairs, load 11-28: 951/431/932/1,258/1,420 against 312/565/746/1,070/672 INSERTs/s.
 */
export const MAX_GATHER_MS = 8;

/** Each table's last round's time from issue to settle (ms): the gather window's length. */
const lastRoundMs = new WeakMap<Table, number>();

/** The table's gather window now: GATHER_MS, or its last round's time up to MAX_GATHER_MS. */
export function gatherMs(table: Table): number {
  return gatherWindow(lastRoundMs.get(table));
}

/** A round of `table` settled `ms` after it was issued: the next window's length. */
export function noteRoundMs(table: Table, ms: number): void {
  lastRoundMs.set(table, ms);
}

/** The gather window after a round that took `lastRoundMs` (undefined: none yet): GATHER_MS to MAX_GATHER_MS. */
export function gatherWindow(lastRoundMs: number | undefined): number {
  return Math.min(MAX_GATHER_MS, Math.max(GATHER_MS, lastRoundMs ?? 0));
}
