/**
 * Where a group-commit round's time goes (issue 16, single-row INSERTs from many clients): with
 * QUARRY_TRACE_ROUNDS=1 the group commit (transaction-group.ts) and the write log (write-log.ts) note a
 * few timestamps, and after 1 s without rounds one line per burst goes to stderr: rounds per second,
 * statements per round, the wait from a statement's arrival to its round's issue, issue to the log write's
 * start, the O_DSYNC write itself, write end to the round's settle, settle to the next issue, and how many
 * writes carried more than one round (a round logged while the previous one's write was in flight);
 * then the turnaround: settle to the next round's first and last statement, its last statement to its
 * issue (and the rounds a gather window ended), settle to applied, the protocol thread's busy share. Without it each hook costs one boolean test.
 */
import { performance as perf } from 'node:perf_hooks';

export const roundTracing = process.env.QUARRY_TRACE_ROUNDS === '1';

const eventLoopUtilization = perf.eventLoopUtilization;
const now = () => performance.now();

interface Stats {
  first: number; last: number; rounds: number; stmts: number; sizes: Map<number, number>;
  arrivalToIssue: number; issueToWrite: number; writeToSettle: number; settleToIssue: number; gaps: number;
  issueToSettle: number; matched: number; writes: number; writeMs: number; writeMax: number; multiWrites: number; writeRecords: number;
  writeHist: number[];
  /** After a round settled: to the first and the last statement of the next round arriving, that round's statements counted. */
  settleToFirst: number; settleToLast: number; turnRounds: number;
  /** The last statement's arrival to its round's issue (the gather's own delay). */
  lastToIssue: number;
  /** Rounds issued by the gather window's end (not every statement expected back came): how many, their last arrival to issue. */
  timedOut: number; timedOutLastToIssue: number;
  /** Settle to the round applied and its statements resolved (the segment made visible). */
  apply: number;
  /** The protocol thread's event-loop utilization over the burst. */
  elu: ReturnType<typeof perf.eventLoopUtilization> | undefined;
  /** Utilization from the first round's issue to the last one's settle. */
  busy: number;
}

function fresh(): Stats {
  return { first: 0, last: 0, rounds: 0, stmts: 0, sizes: new Map(), arrivalToIssue: 0, issueToWrite: 0, writeToSettle: 0,
    settleToIssue: 0, gaps: 0, issueToSettle: 0, matched: 0, writes: 0, writeMs: 0, writeMax: 0, multiWrites: 0, writeRecords: 0, writeHist: [0, 0, 0, 0, 0, 0],
    settleToFirst: 0, settleToLast: 0, turnRounds: 0, lastToIssue: 0, apply: 0, elu: undefined, busy: 0, timedOut: 0, timedOutLastToIssue: 0 };
}

let s = fresh();
let lastSettle = 0;
let lastWriteStart = 0;
let lastWriteEnd = 0;
let timer: NodeJS.Timeout | undefined;
/** Write-time buckets (ms): <0.1, <0.2, <0.5, <1, <2, more. */
const BOUNDS = [0.1, 0.2, 0.5, 1, 2];

let timedOut = false;

/** The next round is issued because its gather window ended. */
export function gatherTimedOut(): void {
  timedOut = true;
}

/** The time a statement reaches the group commit (0 when not tracing). */
export function arrival(): number {
  return roundTracing ? now() : 0;
}

/** A round issued with statements that arrived at `arrivals`; returns its issue time. */
export function roundIssued(arrivals: number[]): number {
  const t = now();
  if (!s.rounds) { s.first = t; s.elu = eventLoopUtilization(); }
  s.rounds++;
  let first = Infinity;
  let last = 0;
  for (const a of arrivals) { if (a < first) first = a; if (a > last) last = a; }
  s.lastToIssue += t - last;
  if (timedOut) { s.timedOut++; s.timedOutLastToIssue += t - last; timedOut = false; }
  if (lastSettle && first >= lastSettle && t - lastSettle < 1000) { s.settleToFirst += first - lastSettle; s.settleToLast += last - lastSettle; s.turnRounds++; }
  s.stmts += arrivals.length;
  s.sizes.set(arrivals.length, (s.sizes.get(arrivals.length) ?? 0) + 1);
  for (const a of arrivals) s.arrivalToIssue += t - a;
  if (lastSettle && t - lastSettle < 1000) { s.settleToIssue += t - lastSettle; s.gaps++; }
  return t;
}

/** A round issued at `issuedAt` settled (its statements about to be acknowledged). */
export function roundSettled(issuedAt: number): void {
  const t = now();
  s.issueToSettle += t - issuedAt;
  // the round's log write starts inside startOverlapped, just before issuedAt is taken: issue->write can be
  // slightly negative; a write that started after the last settle is this round's
  if (lastWriteStart > lastSettle && lastWriteEnd >= lastWriteStart) { s.issueToWrite += lastWriteStart - issuedAt; s.writeToSettle += t - lastWriteEnd; s.matched++; }
  lastSettle = s.last = t;
  if (s.elu) s.busy = eventLoopUtilization(s.elu).utilization;
  clearTimeout(timer);
  timer = setTimeout(report, 1000).unref();
}

/** The write log starts a write of `records` records; returns its start. */
/** The round that settled last is applied and its statements resolved. */
export function roundApplied(): void {
  s.apply += now() - lastSettle;
}

export function writeStarted(records: number): number {
  const t = now();
  lastWriteStart = t;
  s.writes++;
  s.writeRecords += records;
  if (records > 1) s.multiWrites++;
  return t;
}

export function writeEnded(startedAt: number): void {
  const t = lastWriteEnd = now();
  const ms = t - startedAt;
  s.writeMs += ms;
  if (ms > s.writeMax) s.writeMax = ms;
  let b = 0;
  while (b < BOUNDS.length && ms >= BOUNDS[b]!) b++;
  s.writeHist[b]!++;
}

function report(): void {
  if (!s.rounds) return;
  const span = (s.last - s.first) / 1000;
  const per = (x: number, n: number) => (n ? (x / n).toFixed(3) : '-');
  const sizes = [...s.sizes].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}:${v}`).join(' ');
  process.stderr.write(`rounds ${s.rounds} in ${span.toFixed(2)} s (${(s.rounds / span).toFixed(0)}/s, ${(s.stmts / span).toFixed(0)} stmts/s),` +
    ` stmts/round ${per(s.stmts, s.rounds)} [${sizes}]; ms: arrival->issue ${per(s.arrivalToIssue, s.stmts)}, issue->write ${per(s.issueToWrite, s.matched)},` +
    ` write ${per(s.writeMs, s.writes)} (max ${s.writeMax.toFixed(2)}; <0.1/0.2/0.5/1/2/more ${s.writeHist.join('/')}), write->settle ${per(s.writeToSettle, s.matched)},` +
    ` issue->settle ${per(s.issueToSettle, s.rounds)}, settle->issue ${per(s.settleToIssue, s.gaps)}; writes ${s.writes}, of >1 record ${s.multiWrites}\n`);
  process.stderr.write(`  turnaround: settle->first arrival ${per(s.settleToFirst, s.turnRounds)}, settle->last arrival ${per(s.settleToLast, s.turnRounds)},` +
    ` last arrival->issue ${per(s.lastToIssue, s.rounds)} (rounds the window ended: ${s.timedOut}, ${per(s.timedOutLastToIssue, s.timedOut)}), settle->applied ${per(s.apply, s.rounds)} ms; protocol thread busy ${(100 * s.busy).toFixed(0)}%\n`);
  s = fresh();
}
