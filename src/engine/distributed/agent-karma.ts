/**
 * Manticore's adaptive mirror choice for ha_strategy nodeads / noerrors (its manual, "Load balancing"):
 * each mirror's outcomes (queries and pings) are counted in blocks of ha_period_karma; the choice reads
 * the current block and, until it is half full, the previous one. Every finished block rescales the
 * mirrors' probabilities by the inverse of their mean latency in it, renormalized, so a faster mirror
 * is asked more often. nodeads sets aside a mirror with several hard (network-level) errors in a row,
 * noerrors one whose error ratio is worse than the best mirror's; those are still tried, last.
 * Pure: time is passed in, randomness too.
 */

/** The karma blocks kept for SHOW AGENT STATUS (each ha_period_karma long: ha-settings.ts). */
export const KEPT_BLOCKS = 15;
/** Hard errors in a row after which nodeads counts a mirror as dead. */
export const DEAD_AFTER_ERRORS = 3;

export interface KarmaBlock {
  /** Index of the period: floor(time / karma). */
  period: number;
  answers: number;
  errors: number;
  totalMs: number;
}

export interface MirrorKarma {
  blocks: KarmaBlock[];
  hardErrorsARow: number;
}

export const newKarma = (): MirrorKarma => ({ blocks: [], hardErrorsARow: 0 });

function block(k: MirrorKarma, now: number, karmaMs: number): KarmaBlock {
  const period = Math.floor(now / karmaMs);
  let b = k.blocks[k.blocks.length - 1];
  if (!b || b.period !== period) {
    b = { period, answers: 0, errors: 0, totalMs: 0 };
    k.blocks.push(b);
    if (k.blocks.length > KEPT_BLOCKS) k.blocks.shift();
  }
  return b;
}

/** One outcome of a query or ping: an answer in `ms`, or an error (`hard`: the connection failed). */
export function recordOutcome(k: MirrorKarma, now: number, karmaMs: number, o: { ms?: number; error?: 'hard' | 'soft' }): void {
  const b = block(k, now, karmaMs);
  if (o.error) {
    b.errors++;
    if (o.error === 'hard') k.hardErrorsARow++;
    return;
  }
  b.answers++;
  b.totalMs += o.ms ?? 0;
  k.hardErrorsARow = 0;
}

/** The blocks the choice reads: the current one, and the previous while the current is less than half over. */
export function liveBlocks(k: MirrorKarma, now: number, karmaMs: number): KarmaBlock[] {
  const period = Math.floor(now / karmaMs);
  const halfOver = now - period * karmaMs >= karmaMs / 2;
  return k.blocks.filter((b) => b.period === period || (!halfOver && b.period === period - 1));
}

/** The probabilities of one mirror set, rescaled once per finished karma block. */
export interface AgentWeights {
  weights: number[];
  /** The last period whose latencies were applied. */
  period: number;
}

/** Applies every block finished since the last call: w_i *= 1 / mean latency_i, then renormalized. */
export function updateWeights(w: AgentWeights, mirrors: MirrorKarma[], now: number, karmaMs: number): number[] {
  const n = mirrors.length;
  if (w.weights.length !== n) { w.weights = mirrors.map(() => 1 / n); w.period = Math.floor(now / karmaMs) - 1; }
  const done = Math.floor(now / karmaMs) - 1;
  for (let p = w.period + 1; p <= done; p++) {
    const means = mirrors.map((k) => {
      const b = k.blocks.find((x) => x.period === p);
      return b && b.answers ? Math.max(b.totalMs / b.answers, 0.01) : undefined;
    });
    if (means.every((m) => m === undefined)) continue;
    // a mirror that answered nothing in the block keeps its share relative to the others' mean
    const known = means.filter((m): m is number => m !== undefined);
    const fallback = known.reduce((a, b) => a + b, 0) / known.length;
    const scaled = w.weights.map((x, i) => x / (means[i] ?? fallback));
    const sum = scaled.reduce((a, b) => a + b, 0);
    w.weights = scaled.map((x) => x / sum);
  }
  w.period = Math.max(w.period, done);
  return w.weights;
}

/** Whether the strategy sets the mirror aside (tried only after the others). */
export function setAside(strategy: 'nodeads' | 'noerrors', mirrors: MirrorKarma[], now: number, karmaMs: number): boolean[] {
  if (strategy === 'nodeads') return mirrors.map((k) => k.hardErrorsARow >= DEAD_AFTER_ERRORS);
  const ratios = mirrors.map((k) => {
    const bs = liveBlocks(k, now, karmaMs);
    const errors = bs.reduce((a, b) => a + b.errors, 0);
    const total = errors + bs.reduce((a, b) => a + b.answers, 0);
    return total ? errors / total : 0;
  });
  const best = Math.min(...ratios);
  return ratios.map((r) => r > best);
}

/**
 * The order to try the mirrors in: the first drawn by weight among those not set aside, the rest of
 * those by weight, then the ones set aside.
 */
export function karmaOrder(weights: number[], aside: boolean[], rnd: () => number): number[] {
  const ok = weights.map((_, i) => i).filter((i) => !aside[i]);
  const rest = weights.map((_, i) => i).filter((i) => aside[i]);
  const byWeight = (xs: number[]) => [...xs].sort((a, b) => weights[b]! - weights[a]! || a - b);
  if (!ok.length) return byWeight(rest);
  const total = ok.reduce((a, i) => a + weights[i]!, 0);
  let r = rnd() * total;
  let first = ok[ok.length - 1]!;
  for (const i of ok) { r -= weights[i]!; if (r < 0) { first = i; break; } }
  return [first, ...byWeight(ok.filter((i) => i !== first)), ...byWeight(rest)];
}
