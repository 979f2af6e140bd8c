/**
 * The binary API's commands over the engine: each request body is read, turned into the SphinxQL
 * statement that does the same (SELECT, CALL SNIPPETS, CALL KEYWORDS, UPDATE, SHOW STATUS), run,
 * and its result written back in searchd's reply layout.
 */
import { API_COLLATIONS, DEFAULT_COLLATION } from '../util/collation.js';
import type { Engine } from '../engine/engine.js';
import type { Result, RowsResult } from '../engine/result.js';
import type { Session } from '../engine/session.js';
import { MANTICORE_MASTER_VERSION } from './manticore-request.js';
import { readSearchQuery } from './search-request.js';
import { ApiQueryError, searchSql } from './search-sql.js';
import { writeSearchError, writeSearchResult, type DescribedTypes } from './search-reply.js';
import { readSphinxqlText, sphinxqlReply } from './sphinxql-command.js';
import { ApiReader, ApiWriter, Cmd, ServedVersion, Status, errorReply, reply } from './wire.js';

export interface CommandEnv {
  engine: Engine;
  session: Session;
  startedAt: number;
  counters: Record<string, number>;
}

/** searchd's version check: the major byte must match; a newer minor still gets an answer. */
export function versionError(cmd: number, ver: number): string | undefined {
  const ours = ServedVersion[cmd]!;
  if (ver >> 8 !== ours >> 8) {
    return `major command version mismatch (expected v.${ours >> 8}.x, got v.${ver >> 8}.${ver & 0xff})`;
  }
  return undefined;
}

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

async function one(env: CommandEnv, sql: string): Promise<Result> {
  const [r] = await env.engine.execute(sql, env.session);
  return r ?? { kind: 'error', code: 'INTERNAL', message: 'no result' };
}

const NAME = /^[A-Za-z0-9_]+$/;

/** The table names of an index list (`t1,t2`, `t1 t2`, `*` for all). */
async function tableList(env: CommandEnv, indexes: string): Promise<string[] | string> {
  const names = indexes.split(/[\s,;]+/).filter(Boolean);
  if (names.length === 1 && names[0] === '*') {
    const r = await one(env, 'SHOW TABLES');
    return r.kind === 'rows' ? r.rows.map((row) => String(row[0])) : 'no enabled local indexes to search';
  }
  if (!names.length) return 'no enabled indexes to search';
  const bad = names.find((n) => !NAME.test(n));
  return bad ? `unknown local index '${bad}' in search request` : names;
}

async function describe(env: CommandEnv, table: string): Promise<{ fields: string[]; described: DescribedTypes }> {
  const r = await one(env, `DESCRIBE ${table}`);
  const fields: string[] = [];
  const described: DescribedTypes = new Map();
  if (r.kind === 'rows') {
    for (const row of r.rows) {
      const [name, type] = [String(row[0]), String(row[1])];
      if (type === 'text') fields.push(name);
      described.set(name, type);
    }
  }
  return { fields, described };
}

async function search(env: CommandEnv, ver: number, body: Buffer): Promise<Buffer> {
  const r = new ApiReader(body);
  const masterVer = ver >= 0x118 ? r.i32() : 0;
  if (masterVer < 0 || masterVer > MANTICORE_MASTER_VERSION) return errorReply(ver, 'master-agent version mismatch; update me first, then update master!');
  const count = ver >= 0x10d ? r.u32() : 1;
  if (count < 1 || count > 32) return errorReply(ver, `bad multi-query count ${count} (must be in 1..32 range)`);
  const queries = [];
  for (let i = 0; i < count; i++) {
    const q = readSearchQuery(r, ver, masterVer);
    if (q.error) return errorReply(ver, q.error);
    queries.push(q);
  }
  const w = new ApiWriter();
  for (const q of queries) {
    const tables = await tableList(env, q.indexes);
    if (typeof tables === 'string') { writeSearchError(w, tables); continue; }
    let sql: string;
    try {
      sql = searchSql(q, tables);
    } catch (e) {
      if (!(e instanceof ApiQueryError)) throw e;
      writeSearchError(w, e.message);
      continue;
    }
    // the master's collation for this query, as searchd's agent takes it (api_search.cpp); else the server's
    env.session.collation = q.collation === undefined ? undefined : API_COLLATIONS[q.collation] ?? DEFAULT_COLLATION;
    const res = await one(env, sql);
    if (res.kind !== 'rows') { writeSearchError(w, res.kind === 'error' ? res.message : 'not a result set'); continue; }
    const schema = await describe(env, tables[0]!);
    writeSearchResult(w, res, { ...schema, agent: q.agent, version: ver, masterVersion: masterVer });
  }
  return reply(Status.OK, ServedVersion[Cmd.SEARCH]!, w.bytes());
}

/** EXCERPT flags (searchd's EXCERPT_FLAG_*) and the CALL SNIPPETS option each one sets. */
const EXCERPT_FLAGS: Array<[number, string]> = [
  [2, 'exact_phrase'], [8, 'use_boundaries'], [16, 'weight_order'], [32, 'query_mode'],
  [64, 'force_all_words'], [128, 'load_files'], [256, 'allow_empty'], [512, 'emit_zones'], [1024, 'load_files_scattered'],
];

async function excerpt(env: CommandEnv, ver: number, body: Buffer): Promise<Buffer> {
  const r = new ApiReader(body);
  r.u32(); // mode: reserved
  const flags = r.u32();
  const table = r.str();
  const words = r.str();
  const opts: string[] = [
    `${quote(r.str())} AS before_match`, `${quote(r.str())} AS after_match`, `${quote(r.str())} AS chunk_separator`,
    `${r.i32()} AS limit`, `${r.i32()} AS around`,
  ];
  if (ver >= 0x102) {
    opts.push(`${r.i32()} AS limit_passages`, `${r.i32()} AS limit_words`, `${r.i32()} AS start_snippet_id`);
    const strip = r.str();
    if (strip && strip !== 'index') opts.push(`${quote(strip)} AS html_strip_mode`);
  }
  if (ver >= 0x103) {
    const boundary = r.str();
    if (boundary && boundary !== 'none') opts.push(`${quote(boundary)} AS passage_boundary`);
  }
  for (const [bit, name] of EXCERPT_FLAGS) if (flags & bit) opts.push(`1 AS ${name}`);
  if (flags & 4) opts.push('1 AS limit_passages'); // single passage
  const n = r.count(4);
  const docs: string[] = [];
  for (let i = 0; i < n; i++) docs.push(r.str());
  if (r.truncated) return errorReply(ver, 'invalid or truncated request');
  if (!NAME.test(table)) return errorReply(ver, `unknown local index '${table}' in search request`);
  if (!docs.length) return errorReply(ver, 'invalid entries count 0');
  const res = await one(env, `CALL SNIPPETS((${docs.map(quote).join(',')}), ${quote(table)}, ${quote(words)}, ${opts.join(', ')})`);
  if (res.kind !== 'rows') return errorReply(ver, res.kind === 'error' ? res.message : 'no snippets');
  const w = new ApiWriter();
  for (const row of res.rows) w.str(String(row[0] ?? ''));
  return reply(Status.OK, ServedVersion[Cmd.EXCERPT]!, w.bytes());
}

async function keywords(env: CommandEnv, ver: number, body: Buffer): Promise<Buffer> {
  const r = new ApiReader(body);
  const text = r.str();
  const table = r.str();
  const stats = r.u32() !== 0;
  if (r.truncated) return errorReply(ver, 'invalid or truncated request');
  if (!NAME.test(table)) return errorReply(ver, `unknown local index '${table}' in search request`);
  const res = await one(env, `CALL KEYWORDS(${quote(text)}, ${quote(table)})`);
  if (res.kind !== 'rows') return errorReply(ver, res.kind === 'error' ? res.message : 'no keywords');
  const col = (name: string) => res.columns.findIndex((c) => c.name === name);
  const [tok, norm] = [col('tokenized'), col('normalized')];
  // Per-keyword docs and hits: the statistics of a search for any of the words.
  const counts = new Map<string, { docs: number; hits: number }>();
  if (stats && res.rows.length) {
    const any = res.rows.map((row) => `"${String(row[tok]).replace(/[\\"]/g, ' ')}"`).join(' | ');
    const found = await one(env, `SELECT id FROM ${table} WHERE MATCH(${quote(any)}) LIMIT 0`);
    for (const k of found.kind === 'rows' ? found.meta?.keywords ?? [] : []) counts.set(k.keyword, k);
  }
  const w = new ApiWriter().u32(res.rows.length);
  for (const row of res.rows) {
    w.str(String(row[tok])).str(String(row[norm]));
    const c = counts.get(String(row[norm]));
    if (stats) w.u32(c?.docs ?? 0).u32(c?.hits ?? 0);
  }
  return reply(Status.OK, ServedVersion[Cmd.KEYWORDS]!, w.bytes());
}

async function update(env: CommandEnv, ver: number, body: Buffer): Promise<Buffer> {
  const r = new ApiReader(body);
  const tables = r.str().split(/[\s,;]+/).filter(Boolean);
  const nattrs = r.count(4);
  if (ver >= 0x103) r.u32(); // ignore_nonexistent
  const attrs: Array<{ name: string; mva: boolean }> = [];
  for (let i = 0; i < nattrs; i++) attrs.push({ name: r.str().toLowerCase(), mva: ver >= 0x102 ? r.u32() !== 0 : false });
  const n = r.count(8);
  const sets: Array<{ id: bigint; values: string[] }> = [];
  for (let i = 0; i < n; i++) {
    const id = ver >= 0x101 ? r.u64() : BigInt(r.u32());
    const values = attrs.map((a) => {
      if (!a.mva) return String(r.i32());
      const k = r.count(4);
      const vals: number[] = [];
      for (let j = 0; j < k; j++) vals.push(r.u32());
      return `(${vals.join(',')})`;
    });
    sets.push({ id, values });
  }
  if (r.truncated) return errorReply(ver, 'invalid or truncated request');
  const bad = [...tables, ...attrs.map((a) => a.name)].find((x) => !NAME.test(x));
  if (bad || !tables.length) return errorReply(ver, bad ? `unknown index '${bad}' in update request` : 'no valid indexes in update request');
  let updated = 0;
  for (const table of tables) {
    for (const s of sets) {
      const assign = attrs.map((a, i) => `${a.name}=${s.values[i]}`).join(', ');
      const res = await one(env, `UPDATE ${table} SET ${assign} WHERE id=${s.id}`);
      if (res.kind === 'error') return errorReply(ver, res.message);
      if (res.kind === 'ok') updated += res.affected;
    }
  }
  return reply(Status.OK, ServedVersion[Cmd.UPDATE]!, new ApiWriter().u32(updated).bytes());
}

async function status(env: CommandEnv): Promise<Buffer> {
  const res = await one(env, 'SHOW STATUS');
  const pairs: Array<[string, string]> = [['uptime', String(Math.floor((Date.now() - env.startedAt) / 1000))]];
  for (const [k, v] of Object.entries(env.counters)) pairs.push([k, String(v)]);
  if (res.kind === 'rows') for (const row of res.rows) if (row[0] !== 'uptime') pairs.push([String(row[0]), String(row[1])]);
  const w = new ApiWriter().u32(pairs.length).u32(2);
  for (const [k, v] of pairs) w.str(k).str(v);
  return reply(Status.OK, ServedVersion[Cmd.STATUS]!, w.bytes());
}

const NAMES: Record<number, string> = { 0: 'command_search', 1: 'command_excerpt', 2: 'command_update', 3: 'command_keywords', 4: 'command_persist', 5: 'command_status', 7: 'command_flushattrs', 8: 'command_sphinxql', 9: 'command_ping' };

/** Runs one command; undefined means no reply (PERSIST). */
export async function runCommand(env: CommandEnv, cmd: number, ver: number, body: Buffer): Promise<Buffer | undefined> {
  if (NAMES[cmd]) env.counters[NAMES[cmd]!] = (env.counters[NAMES[cmd]!] ?? 0) + 1;
  if (ServedVersion[cmd] !== undefined) {
    const bad = versionError(cmd, ver);
    if (bad) return errorReply(ver, bad);
  }
  switch (cmd) {
    case Cmd.SEARCH: return search(env, ver, body);
    case Cmd.EXCERPT: return excerpt(env, ver, body);
    case Cmd.KEYWORDS: return keywords(env, ver, body);
    case Cmd.UPDATE: return update(env, ver, body);
    case Cmd.STATUS: return status(env);
    case Cmd.SPHINXQL: {
      const sql = readSphinxqlText(ver, body);
      return typeof sql === 'string' ? sphinxqlReply(await one(env, sql)) : sql;
    }
    case Cmd.PING: return reply(Status.OK, ServedVersion[Cmd.PING]!, body.subarray(0, 4));
    case Cmd.FLUSHATTRS: return reply(Status.OK, ServedVersion[Cmd.FLUSHATTRS]!, new ApiWriter().u32(0).bytes());
    default: return errorReply(ver, `invalid command (code=${cmd}, len=${body.length})`);
  }
}
