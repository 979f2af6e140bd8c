// bench/highlight/highlight-classes.ts: highlighted documents per second per query class, quarry's servers
// beside Sphinx 2.2.11's searchd in one run, every peer over its wire protocol. For each class the
// top 20 hits of each query are highlighted by: quarry's SQL `SELECT id, HIGHLIGHT() ... LIMIT 20`
// (MySQL protocol; every stored field, search included), quarry's JSON `/search` with `highlight`
// (HTTP; search included), quarry's CALL SNIPPETS of the 20 bodies (MySQL protocol), and Sphinx's
// `SELECT id ... LIMIT 20` + CALL SNIPPETS of those ids' bodies (Sphinx 2.2's RT index keeps no text:
// its client sends it), and Sphinx's CALL SNIPPETS of quarry's 20 bodies alone. Modes run in blocks
// of one class's queries (two warm-up blocks each first), alternated over `rounds` (each round every
// mode one block, the order reversed every other round): each mode's docs/s in every block, the
// median block's, and its docs per second of server CPU (every thread's scheduler run time, to the
// microsecond, summed over all blocks). A ratio of two modes is the median over the rounds of the two
// blocks' ratio in that round (same minutes, so a slow spell of the machine weighs on both).
// Why many rounds: a block is 20 queries, 12-90 ms; one preemption or collection moves it by 10-30%.
import type { Connection } from 'mysql2/promise';
import { createConnection } from 'mysql2/promise';
import { sqlString } from '../lib/bench-util.js';
import type { CorpusDoc } from '../lib/corpus.js';
import { clientAgent, LeanHttpClient, postOk, type BenchAgent } from '../lib/http-client.js';
import { cpuMark, cpuMsSince } from '../lib/process-cpu.js';
import type { QuarryServer } from '../side-by-side/side-by-side.bench.js';

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
export interface Clients { mysql: Connection; agent?: BenchAgent; lean?: LeanHttpClient; close(): Promise<void> }

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

/**
 * `blocks`: docs/s of each round's block, in round order; `docsPerSec` their median; `cpuMsBlocks`: the
 * server's CPU ms in each block (a spread there is the server's own: collections, compiles, not the machine);
 * `clientCpuMsPerQuery`: this (bench client) process's CPU per query, on the cores the server shares.
 */
export interface ModeFigure { docsPerSec: number; docsPerCpuSec: number; clientCpuMsPerQuery: number; blocks: number[]; cpuMsBlocks: number[] }

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

/** Per round, mode a's block docs/s over mode b's (the same round's, minutes apart at most). */
export function roundRatios(a: ModeFigure | undefined, b: ModeFigure | undefined): number[] {
  if (!a || !b) return [];
  return a.blocks.map((x, r) => x / b.blocks[r]);
}

/** Warm-up blocks per mode before a class's timed rounds: its queries' plans, trees and code paths warm in both peers. */
const WARM_BLOCKS = 2;

/**
 * Each mode over `rounds` alternated blocks of `queries` (WARM_BLOCKS warm-up blocks each first): every
 * block's docs/s, and docs per second of the server's CPU over all blocks.
 */
export async function measureClass(modes: HighlightMode[], queries: string[], rounds: number): Promise<Map<string, ModeFigure>> {
  const blocks = new Map(modes.map((m) => [m.name, { rate: [] as number[], cpu: [] as number[], cpuMs: 0, docs: 0, clientMs: 0, queries: 0 }]));
  for (let w = 0; w < WARM_BLOCKS; w++) for (const m of modes) for (const q of queries) await m.run(q);
  for (let r = 0; r < rounds; r++) {
    for (const m of r % 2 ? [...modes].reverse() : modes) {
      const cpu0 = cpuMark(m.pid);
      const own0 = process.cpuUsage();
      const t0 = performance.now();
      let docs = 0;
      for (const q of queries) docs += await m.run(q);
      const secs = (performance.now() - t0) / 1000;
      const own = process.cpuUsage(own0);
      const b = blocks.get(m.name)!;
      b.rate.push(docs / secs);
      const cpuMs = cpuMsSince(cpu0);
      b.cpu.push(cpuMs);
      b.cpuMs += cpuMs;
      b.clientMs += (own.user + own.system) / 1000;
      b.queries += queries.length;
      b.docs += docs;
    }
  }
  return new Map([...blocks].map(([name, b]) => [name, {
    docsPerSec: median(b.rate), docsPerCpuSec: b.docs / (Math.max(b.cpuMs, 0.001) / 1000),
    clientCpuMsPerQuery: b.clientMs / Math.max(b.queries, 1), blocks: b.rate, cpuMsBlocks: b.cpu,
  }]));
}
