/**
 * What the master knows of each mirror (Manticore's HostDashboard_t): counters by outcome for SHOW
 * AGENT STATUS and SHOW STATUS, errors in a row, and the mirror choice of each ha_strategy.
 */
import type { AgentSpec, HaStrategy, Mirror } from './dist-def.js';
import { mirrorUrl } from './dist-def.js';

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

/** How long a failed mirror counts as dead for nodeads/noerrors (Manticore's ha_period_karma, 60 s). */
export const HA_PERIOD_KARMA_MS = 60_000;

const hosts = new Map<string, HostStats>();
const roundRobin = new Map<AgentSpec, number>();

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

export function noteSuccess(m: Mirror, ms: number, warning: boolean): void {
  const h = hostStats(m);
  h.counters.succeeded_queries++;
  h.counters.total_query_time += Math.round(ms);
  if (warning) h.counters.warnings++;
  h.errorsARow = 0;
  h.lastAnswerAt = Date.now();
  h.lastPeriodMs = ms;
}

export function noteFailure(m: Mirror, message: string): void {
  const h = hostStats(m);
  h.counters[failureCounter(message)]++;
  h.errorsARow++;
  h.lastAnswerAt = Date.now();
}

function failedRecently(m: Mirror, now: number): boolean {
  const h = hostStats(m);
  return h.errorsARow > 0 && now - h.lastAnswerAt < HA_PERIOD_KARMA_MS;
}

/**
 * The mirrors of one agent in the order to try them. random: a random order; roundrobin: starting
 * one further each query; nodeads / noerrors: mirrors that failed within the karma period go last
 * (nodeads counts only connection-level failures as death; here both look at errors in a row).
 */
export function mirrorOrder(agent: AgentSpec, strategy: HaStrategy, rnd: () => number = Math.random): Mirror[] {
  const ms = agent.mirrors;
  if (ms.length === 1) return [ms[0]!];
  let order: Mirror[];
  if (strategy === 'roundrobin') {
    const next = roundRobin.get(agent) ?? 0;
    roundRobin.set(agent, (next + 1) % ms.length);
    order = [...ms.slice(next), ...ms.slice(0, next)];
  } else {
    order = [...ms];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
  }
  if (strategy === 'nodeads' || strategy === 'noerrors') {
    const now = Date.now();
    order = [...order.filter((m) => !failedRecently(m, now)), ...order.filter((m) => failedRecently(m, now))];
  }
  return order;
}
