/**
 * What the master knows of each mirror (Manticore's HostDashboard_t): counters by outcome for SHOW
 * AGENT STATUS and SHOW STATUS, errors in a row, and the mirror choice of each ha_strategy.
 */
import type { AgentSpec, HaStrategy, Mirror } from './dist-def.js';
import { mirrorUrl } from './dist-def.js';
import { karmaOrder, newKarma, recordOutcome, setAside, updateWeights, type AgentWeights, type MirrorKarma } from './agent-karma.js';
import { haFor } from './ha-settings.js';

/** Counter names as Manticore's sAgentStatsNames (searchd.cpp). */
export const AGENT_COUNTERS = [
  'query_timeouts', 'connect_timeouts', 'connect_failures', 'network_errors', 'wrong_replies',
  'unexpected_closings', 'warnings', 'succeeded_queries', 'total_query_time',
] as const;
export type AgentCounter = (typeof AGENT_COUNTERS)[number];

export interface HostStats {
  url: string;
  counters: Record<AgentCounter, number>;
  errorsARow: number;
  lastQueryAt: number;
  lastAnswerAt: number;
  lastPeriodMs: number;
}

/** Manticore's ha_period_karma, the statistics block length: the table's, else the searchd setting. */
const serverKarmaMs = (): number => haFor().karmaPeriodMs;

const hosts = new Map<string, HostStats>();
const roundRobin = new Map<AgentSpec, number>();
const karma = new Map<string, MirrorKarma>();
const agentWeights = new Map<AgentSpec, AgentWeights>();

function mirrorKarma(m: Mirror): MirrorKarma {
  const url = mirrorUrl(m);
  let k = karma.get(url);
  if (!k) karma.set(url, (k = newKarma()));
  return k;
}

/** The counters whose failures are network-level (nodeads' dead mirrors). */
const HARD: ReadonlySet<AgentCounter> = new Set(['connect_timeouts', 'connect_failures', 'network_errors', 'unexpected_closings', 'query_timeouts']);

/** A ping's outcome (ha_ping_interval): counted in the karma blocks, not in the query counters. */
export function notePing(m: Mirror, ms: number, failure?: string, karmaMs = serverKarmaMs()): void {
  recordOutcome(mirrorKarma(m), Date.now(), karmaMs, failure ? { error: HARD.has(failureCounter(failure)) ? 'hard' : 'soft' } : { ms });
}

export function hostStats(m: Mirror): HostStats {
  const url = mirrorUrl(m);
  let h = hosts.get(url);
  if (!h) {
    const counters = Object.fromEntries(AGENT_COUNTERS.map((c) => [c, 0])) as Record<AgentCounter, number>;
    h = { url, counters, errorsARow: 0, lastQueryAt: 0, lastAnswerAt: 0, lastPeriodMs: 0 };
    hosts.set(url, h);
  }
  return h;
}

export function allHosts(): HostStats[] {
  return [...hosts.values()];
}

/** The counter a failure message belongs to (agent-client's wording). */
export function failureCounter(message: string): AgentCounter {
  if (message.startsWith('connect and query timed out')) return 'connect_timeouts';
  if (message.startsWith('query timed out')) return 'query_timeouts';
  if (message.startsWith('connect() failed') || message.startsWith('failed to lookup')) return 'connect_failures';
  if (message.startsWith('agent closed connection')) return 'unexpected_closings';
  if (message.includes('reply') || message.startsWith('remote error')) return 'wrong_replies';
  return 'network_errors';
}

export function noteStart(m: Mirror): void {
  hostStats(m).lastQueryAt = Date.now();
}

export function noteSuccess(m: Mirror, ms: number, warning: boolean, karmaMs = serverKarmaMs()): void {
  const h = hostStats(m);
  h.counters.succeeded_queries++;
  h.counters.total_query_time += Math.round(ms);
  if (warning) h.counters.warnings++;
  h.errorsARow = 0;
  h.lastAnswerAt = Date.now();
  h.lastPeriodMs = ms;
  recordOutcome(mirrorKarma(m), h.lastAnswerAt, karmaMs, { ms });
}

export function noteFailure(m: Mirror, message: string, karmaMs = serverKarmaMs()): void {
  const h = hostStats(m);
  const counter = failureCounter(message);
  h.counters[counter]++;
  h.errorsARow++;
  h.lastAnswerAt = Date.now();
  recordOutcome(mirrorKarma(m), h.lastAnswerAt, karmaMs, { error: HARD.has(counter) ? 'hard' : 'soft' });
}

/**
 * The mirrors of one agent in the order to try them. random: a random order; roundrobin: starting
 * one further each query; nodeads / noerrors: drawn by latency-weighted probability from the karma
 * blocks, dead (nodeads) or more erring (noerrors) mirrors last (agent-karma.ts).
 */
export function mirrorOrder(agent: AgentSpec, strategy: HaStrategy, rnd: () => number = Math.random, karmaMs = serverKarmaMs()): Mirror[] {
  const ms = agent.mirrors;
  if (ms.length === 1) return [ms[0]!];
  if (strategy === 'roundrobin') {
    const next = roundRobin.get(agent) ?? 0;
    roundRobin.set(agent, (next + 1) % ms.length);
    return [...ms.slice(next), ...ms.slice(0, next)];
  }
  if (strategy === 'nodeads' || strategy === 'noerrors') {
    const now = Date.now();
    const ks = ms.map(mirrorKarma);
    let w = agentWeights.get(agent);
    if (!w) agentWeights.set(agent, (w = { weights: [], period: 0 }));
    const order = karmaOrder(updateWeights(w, ks, now, karmaMs), setAside(strategy, ks, now, karmaMs), rnd);
    return order.map((i) => ms[i]!);
  }
  const order = [...ms];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
