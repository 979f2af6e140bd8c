// bench/highlight-classes.ts: highlighted documents per second per query class, quarry's servers
// beside Sphinx 2.2.11's searchd in one run, every peer over its wire protocol. For each class the
// top 20 hits of each query are highlighted by: quarry's SQL `SELECT id, HIGHLIGHT() ... LIMIT 20`
// (MySQL protocol; every stored field, search included), quarry's JSON `/search` with `highlight`
// (HTTP; search included), quarry's CALL SNIPPETS of the 20 bodies (MySQL protocol), and Sphinx's
// `SELECT id ... LIMIT 20` + CALL SNIPPETS of those ids' bodies (Sphinx 2.2's RT index keeps no text:
// its client sends it), and Sphinx's CALL SNIPPETS of quarry's 20 bodies alone. Modes run in blocks
// of one class's queries, alternated over `rounds`: each mode's median block's wall docs/s, and its
// docs per second of server CPU (user + system of the server process, every thread) over all blocks.
import type { Connection } from 'mysql2/promise';
import { createConnection } from 'mysql2/promise';
import type http from 'node:http';
import { sqlString } from './bench-util.js';
import type { CorpusDoc } from './corpus.js';
import { clientAgent, LeanHttpClient, postOk } from './http-client.js';
import { processCpuMs } from './process-cpu.js';
import type { QuarryServer } from './side-by-side.bench.js';

export const TOP = 20;

/** One way of highlighting a query's top hits; resolves with the number of documents highlighted. */
export interface HighlightMode { name: string; pid: number; run(q: string): Promise<number> }

export const highlightSql = (q: string): string => `SELECT id, HIGHLIGHT() FROM gcide WHERE MATCH(${sqlString(q)}) LIMIT ${TOP}`;
export const searchSql = (q: string): string => `SELECT id FROM gcide WHERE MATCH(${sqlString(q)}) LIMIT ${TOP}`;
export const callSnippets = (texts: string[], q: string): string =>
  `CALL SNIPPETS((${texts.map(sqlString).join(',')}), 'gcide', ${sqlString(q)})`;
/** The JSON request: the query's top 20 with every stored field highlighted; `_source` only `len` (Sphinx returns no text either). */
export const jsonSearch = (q: string): string =>
  `{"table":"gcide","query":{"query_string":${JSON.stringify(q)}},"limit":${TOP},"_source":["len"],"highlight":{}}`;

async function rows(c: Connection, sql: string): Promise<unknown[]> {
  const [r] = await c.query(sql);
  return r as unknown[];
}

const idsOf = (rs: unknown[]): number[] => rs.map((r) => Number((r as { id: unknown }).id));

/** Open connections of one server, closed by `close`. */
export interface Clients { mysql: Connection; agent?: http.Agent; lean?: LeanHttpClient; close(): Promise<void> }

/** `lean`: JSON requests by http-client.ts LeanHttpClient instead of node:http (the bench's --lean-client 1). */
export async function quarryClients(s: QuarryServer, lean = false): Promise<Clients & { port: number; mysqlPort: number }> {
  const mysql = await createConnection({ host: '127.0.0.1', port: s.mysqlPort });
  const agent = clientAgent();
  const client = lean ? new LeanHttpClient(s.port) : undefined;
  return {
    mysql, agent, lean: client, port: s.port, mysqlPort: s.mysqlPort,
    close: async () => { await mysql.end(); agent.destroy(); client?.close(); },
  };
}

async function postSearch(c: Clients, port: number, body: string): Promise<string> {
  if (!c.lean) return postOk(c.agent!, port, '/search', body);
  const r = await c.lean.post('/search', body);
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.body.slice(0, 200)}`);
  return r.body;
}

/**
 * quarry's three modes on one server (`label` names the build). `bodies(q)` are the top 20 bodies
 * by quarry's own search, the same texts Sphinx's CALL SNIPPETS-only mode gets.
 */
export function quarryModes(label: string, s: QuarryServer, c: Clients, bodies: (q: string) => string[]): HighlightMode[] {
  return [
    { name: `${label} SQL HIGHLIGHT()`, pid: s.pid, run: async (q) => (await rows(c.mysql, highlightSql(q))).length },
    {
      name: `${label} JSON highlight`, pid: s.pid,
      run: async (q) => {
        const body = await postSearch(c, s.port, jsonSearch(q));
        return (body.match(/"highlight":/g) ?? []).length;
      },
    },
    {
      name: `${label} CALL SNIPPETS`, pid: s.pid,
      run: async (q) => { const t = bodies(q); if (t.length) await rows(c.mysql, callSnippets(t, q)); return t.length; },
    },
  ];
}

/** Sphinx's two modes: search + CALL SNIPPETS of its own hits, and CALL SNIPPETS of quarry's bodies alone. */
export function sphinxModes(pid: number, c: Connection, byId: Map<number, CorpusDoc>, bodies: (q: string) => string[]): HighlightMode[] {
  return [
    {
      name: 'Sphinx search + CALL SNIPPETS', pid,
      run: async (q) => {
        const ids = idsOf(await rows(c, searchSql(q)));
        if (ids.length) await rows(c, callSnippets(ids.map((id) => byId.get(id)?.body ?? ''), q));
        return ids.length;
      },
    },
    {
      name: 'Sphinx CALL SNIPPETS', pid,
      run: async (q) => { const t = bodies(q); if (t.length) await rows(c, callSnippets(t, q)); return t.length; },
    },
  ];
}

/** quarry's top-20 bodies per query (its own search over MySQL), for the CALL SNIPPETS modes. */
export async function topBodies(c: Connection, queries: string[], byId: Map<number, CorpusDoc>): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const q of queries) out.set(q, idsOf(await rows(c, searchSql(q))).map((id) => byId.get(id)?.body ?? ''));
  return out;
}

/** `clientCpuMsPerQuery`: this (bench client) process's CPU per query, on the cores the server shares. */
export interface ModeFigure { docsPerSec: number; docsPerCpuSec: number; clientCpuMsPerQuery: number }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Each mode over `rounds` alternated blocks of `queries` (one warm-up block each first): the median
 * block's docs/s, and docs per second of the server's CPU over all blocks (/proc counts 10 ms ticks:
 * summed over the blocks, not a median of coarse ones).
 */
export async function measureClass(modes: HighlightMode[], queries: string[], rounds: number): Promise<Map<string, ModeFigure>> {
  const blocks = new Map(modes.map((m) => [m.name, { rate: [] as number[], cpuMs: 0, docs: 0, clientMs: 0, queries: 0 }]));
  for (const m of modes) for (const q of queries) await m.run(q);
  for (let r = 0; r < rounds; r++) {
    for (const m of r % 2 ? [...modes].reverse() : modes) {
      const cpu0 = processCpuMs(m.pid);
      const own0 = process.cpuUsage();
      const t0 = performance.now();
      let docs = 0;
      for (const q of queries) docs += await m.run(q);
      const secs = (performance.now() - t0) / 1000;
      const b = blocks.get(m.name)!;
      b.rate.push(docs / secs);
      b.cpuMs += processCpuMs(m.pid) - cpu0;
      const own = process.cpuUsage(own0);
      b.clientMs += (own.user + own.system) / 1000;
      b.queries += queries.length;
      b.docs += docs;
    }
  }
  return new Map([...blocks].map(([name, b]) => [name, {
    docsPerSec: median(b.rate), docsPerCpuSec: b.docs / (Math.max(b.cpuMs, 10) / 1000), clientCpuMsPerQuery: b.clientMs / Math.max(b.queries, 1),
  }]));
}
