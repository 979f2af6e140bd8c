/**
 * What a query takes to evaluate, in milliseconds, learnt from the queries that ran: the hand-over
 * policy (query-threads.ts) weighs that against what a hand-over costs, and a query's postings alone
 * tell it badly. On 100k gcide (bench/side-by-side's mix, 4000 queries, one client) a posting costs
 * 0.26-2.3 us by shape (a two-word AND skips most of its postings, an OR decodes all), and two-word
 * phrases of 250k postings, which the old fixed threshold of 200k postings sent to the threads, take
 * a median 0.32 ms here, about what the hand-over costs; 0.4% of the queries take 1 ms or more.
 *
 * A shape is the query's kind and keyword count (shapeOf) with its cost rounded to a half power of 2;
 * each shape keeps an exponentially weighted mean of its evaluation times (a sample clipped to a few
 * times the mean), fed by every query: those that ran here (their wall time) and those a thread ran
 * (the thread's own time, so a shape sent away once is still corrected). A shape not seen yet is
 * estimated from the mean time per posting of all.
 */

/** Weight of the newest sample in a shape's mean: a mean of about the last 8, quick to follow a change. */
const ALPHA = 0.125;
/**
 * A sample counts for at most this many times its shape's mean: a query's wall time here includes the
 * thread's preemptions, and on a loaded machine one of 0.15 ms measured 15 ms now and then (100k gcide,
 * 8 clients), which would otherwise send the next queries of its shape away. A real change still
 * shows within a few queries (the mean grows by up to 1.4x a sample).
 */
const MAX_JUMP = 4;
/** Shapes remembered; past it the table starts again (a mix of more shapes than this is not a mix). */
const MAX_SHAPES = 4096;
/** Milliseconds per posting until a query has been measured: within 100k gcide's 0.26-2.3 us by shape. */
const PRIOR_MS_PER_POSTING = 5e-6;
/** Costs under this many postings do not teach the per-posting rate (fixed costs dominate them). */
const RATE_MIN_COST = 1000;

const means = new Map<string, number>();
let msPerPosting = PRIOR_MS_PER_POSTING;

/** The shape of a query: what it is (search or grouping, its top node) and how many keywords it has. */
export function shapeOf(what: string, keywords: number): string {
  return `${what}/${keywords}`;
}

function key(shape: string, cost: number): string {
  return `${shape}/${Math.round(2 * Math.log2(cost + 1))}`;
}

/** Records that a query of `shape` and `cost` (searchCost) took `ms` to evaluate. */
export function recordCost(shape: string, cost: number, ms: number): void {
  if (!(ms >= 0)) return;
  const k = key(shape, cost);
  const m = means.get(k);
  if (m === undefined) {
    if (means.size >= MAX_SHAPES) means.clear();
    means.set(k, ms);
  } else {
    means.set(k, m + ALPHA * (Math.min(Math.max(ms, m / MAX_JUMP), m * MAX_JUMP) - m));
  }
  if (cost >= RATE_MIN_COST) {
    const rate = Math.min(Math.max(ms / cost, msPerPosting / MAX_JUMP), msPerPosting * MAX_JUMP);
    msPerPosting += ALPHA * (rate - msPerPosting);
  }
}

/** The expected evaluation time of a query of `shape` and `cost`, in ms. */
export function estimateCost(shape: string, cost: number): number {
  return means.get(key(shape, cost)) ?? cost * msPerPosting;
}

/** Runs `evaluate` on this thread and gives `learn` its wall time in ms. */
export function timed<T>(learn: (ms: number) => void, evaluate: () => T): T {
  const t0 = performance.now();
  const result = evaluate();
  learn(performance.now() - t0);
  return result;
}

/** Forgets every measurement (tests). */
export function resetCostModel(): void {
  means.clear();
  msPerPosting = PRIOR_MS_PER_POSTING;
}
