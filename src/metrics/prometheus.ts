/**
 * The counters of SHOW STATUS in Prometheus' text exposition format (version 0.0.4), plus latency
 * histograms by statement kind and by table, for GET /metrics.
 */
import { COMMANDS, LATENCY_BUCKETS, metrics, type Histogram } from './metrics.js';

/** A label value escaped as the format asks (backslash, double quote, newline). */
function label(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function histogramLines(name: string, labelName: string, hs: Map<string, Histogram>): string[] {
  const out = [`# HELP ${name} Statement wall time in seconds by ${labelName}.`, `# TYPE ${name} histogram`];
  for (const [key, h] of [...hs].sort(([a], [b]) => a.localeCompare(b))) {
    const l = `${labelName}="${label(key)}"`;
    LATENCY_BUCKETS.forEach((le, i) => out.push(`${name}_bucket{${l},le="${le}"} ${h.counts[i]}`));
    out.push(`${name}_bucket{${l},le="+Inf"} ${h.count}`, `${name}_sum{${l}} ${h.sumSeconds}`, `${name}_count{${l}} ${h.count}`);
  }
  return out;
}

function simple(name: string, type: 'counter' | 'gauge', help: string, value: number): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`];
}

export function prometheusText(): string {
  const m = metrics;
  const lines = [
    ...simple('manticore_uptime_seconds', 'gauge', 'Seconds since the server started.', m.uptimeSeconds()),
    ...simple('manticore_connections_total', 'counter', 'Client connections accepted.', m.connections),
    ...simple('manticore_maxed_out_total', 'counter', 'Connections refused over max_connections.', m.maxedOut),
    ...simple('manticore_queries_total', 'counter', 'Search queries.', m.queries),
    ...simple('manticore_query_wall_seconds_total', 'counter', 'Wall time of search queries.', m.queryWallMs / 1000),
    ...simple('manticore_dist_queries_total', 'counter', 'Distributed queries that asked remote agents.', m.distQueries),
    ...simple('manticore_dist_wall_seconds_total', 'counter', 'Wall time of distributed queries.', m.distWallMs / 1000),
    ...simple('manticore_dist_local_seconds_total', 'counter', 'Time distributed queries spent on their local tables.', m.distLocalMs / 1000),
    ...simple('manticore_dist_wait_seconds_total', 'counter', 'Time distributed queries waited for their agents, added over agents.', m.distWaitMs / 1000),
    ...simple('manticore_workers_clients', 'gauge', 'Open client connections.', m.activities().length),
    ...simple('manticore_workers_active', 'gauge', 'Connections running a statement now.', m.activities().filter((a) => a.info).length),
    '# HELP manticore_commands_total Statements by Manticore command kind (SHOW STATUS command_*).',
    '# TYPE manticore_commands_total counter',
    ...COMMANDS.map((c) => `manticore_commands_total{command="${c}"} ${m.commands.get(c) ?? 0}`),
    ...histogramLines('quarry_statement_duration_seconds', 'statement', m.byStatement),
    ...histogramLines('quarry_table_statement_duration_seconds', 'table', m.byTable),
  ];
  return lines.join('\n') + '\n';
}
