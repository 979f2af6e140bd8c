/**
 * One request to a remote searchd (quarry, Sphinx or Manticore) over the binary API: connect within
 * the connect timeout, exchange protocol versions, send one command, read one reply within the
 * query timeout. Failures are rejected with searchd's wording so a master can report them.
 */
import type { AgentPool } from './agent-pool.js';
import { exchange, frame, openAgentSocket, type AgentAddress, type AgentReply, type AgentTimeouts } from './agent-conn.js';
import type { ApiQuery } from './search-request.js';
import { MANTICORE_MASTER_VERSION, MANTICORE_SEARCH_VERSION } from './manticore-request.js';
import { manticoreSearchBody } from './manticore-write.js';
import { CLIENT_SEARCH_VERSION, readSearchResults, writeSearchQuery, type AgentResult } from './search-write.js';
import { ApiReader, ApiWriter, Cmd, Status } from './wire.js';

export type { AgentAddress, AgentTimeouts } from './agent-conn.js';

/** Timeouts, and the persistent pool to use (agent_persistent) or none (a connection per request). */
export interface AgentRequestOptions extends AgentTimeouts {
  pool?: AgentPool;
}

export const DEFAULT_TIMEOUTS: AgentTimeouts = { connectMs: 1000, queryMs: 3000 };

/** Sends `cmd` and resolves with the reply's status and body. */
export async function agentRequest(to: AgentAddress, cmd: number, ver: number, body: Buffer, t: AgentRequestOptions = DEFAULT_TIMEOUTS): Promise<AgentReply> {
  if (t.pool) return t.pool.request(to, cmd, ver, body, t);
  const socket = await openAgentSocket(to, t.connectMs);
  try {
    return await exchange(socket, frame(cmd, ver, body), true, t.queryMs);
  } finally {
    socket.destroy();
  }
}

/** Runs `queries` on one agent; a whole-request error is rejected, a per-query error is in its result. */
export async function searchAgent(to: AgentAddress, queries: ApiQuery[], t?: AgentRequestOptions): Promise<AgentResult[]> {
  return (await searchAgentSized(to, queries, t)).results;
}

/**
 * A client-layout query with its COUNT(DISTINCT x) also named in the group-distinct field: Sphinx 2.2
 * searchd reads the select item as its @distinct column but counts only the attribute that field names
 * (its SphinxQL parser sets both), and without it answers "column '@distinct/...' not found".
 */
function withGroupDistinct(q: ApiQuery): ApiQuery {
  const m = /\bcount\s*\(\s*distinct\s+([A-Za-z_]\w*)\s*\)/i.exec(q.select);
  return m && !q.groupDistinct ? { ...q, groupDistinct: m[1]! } : q;
}

/** Agents (host:port) that refused the Manticore master layout: Sphinx 2.2 searchd, sent 0x11E as a client. */
const sphinxAgents = new Set<string>();

function replyError(reply: AgentReply): string | undefined {
  if (reply.status !== Status.ERROR && reply.status !== Status.RETRY) return undefined;
  const len = reply.body.length >= 4 ? reply.body.readUInt32BE(0) : 0;
  return reply.body.toString('utf8', 4, 4 + len);
}

/**
 * searchAgent, with the reply's size in bytes (header included) for the master's statistics. A
 * Manticore master's request (0x128, master 35) goes first, as Manticore and quarry agents read it;
 * an agent that refuses its version (Sphinx 2.2 searchd: "master-agent version mismatch", "client
 * version is higher") is sent the Sphinx 2.2 client layout from then on.
 */
export async function searchAgentSized(to: AgentAddress, queries: ApiQuery[], t?: AgentRequestOptions): Promise<{ results: AgentResult[]; bytes: number }> {
  const key = `${to.host}:${to.port}`;
  if (!sphinxAgents.has(key)) {
    const reply = await agentRequest(to, Cmd.SEARCH, MANTICORE_SEARCH_VERSION, manticoreSearchBody(queries), t);
    const error = replyError(reply);
    if (error === undefined) return { results: readSearchResults(reply.body, queries.length, MANTICORE_MASTER_VERSION), bytes: reply.body.length + 8 };
    if (!/version/i.test(error)) throw new Error(`remote error: ${error}`);
    sphinxAgents.add(key);
  }
  if (queries.some((q) => (q.groupLimit ?? 1) > 1)) throw new Error('remote error: GROUP N BY cannot be sent in the Sphinx 2.2 client layout this agent reads');
  if (queries.some((q) => q.expandKeywords)) throw new Error('remote error: OPTION expand_keywords cannot be sent in the Sphinx 2.2 client layout this agent reads');
  const w = new ApiWriter().u32(0).u32(queries.length);
  for (const q of queries) writeSearchQuery(w, withGroupDistinct(q));
  const reply = await agentRequest(to, Cmd.SEARCH, CLIENT_SEARCH_VERSION, w.bytes(), t);
  const error = replyError(reply);
  if (error !== undefined) throw new Error(`remote error: ${error}`);
  return { results: readSearchResults(reply.body, queries.length), bytes: reply.body.length + 8 };
}

/** What an EXCERPT request carries (searchd's 0x104 layout; the flags are EXCERPT_FLAG_*). */
export interface ExcerptRequest {
  index: string;
  words: string;
  docs: string[];
  flags: number;
  beforeMatch: string;
  afterMatch: string;
  separator: string;
  limit: number;
  around: number;
  limitPassages: number;
  limitWords: number;
  startPassageId: number;
  htmlStripMode: string;
  passageBoundary: string;
}

export const EXCERPT_VERSION = 0x104;

/** Builds snippets on a remote searchd: one text per document sent, in order. */
export async function excerptAgent(to: AgentAddress, q: ExcerptRequest, t?: AgentRequestOptions): Promise<string[]> {
  const w = new ApiWriter().u32(0).u32(q.flags).str(q.index).str(q.words).str(q.beforeMatch).str(q.afterMatch).str(q.separator);
  w.u32(q.limit).u32(q.around).u32(q.limitPassages).u32(q.limitWords).u32(q.startPassageId).str(q.htmlStripMode).str(q.passageBoundary);
  w.u32(q.docs.length);
  for (const d of q.docs) w.str(d);
  const reply = await agentRequest(to, Cmd.EXCERPT, EXCERPT_VERSION, w.bytes(), t);
  const r = new ApiReader(reply.body);
  if (reply.status === Status.ERROR || reply.status === Status.RETRY) throw new Error(`remote error: ${r.str()}`);
  if (reply.status === Status.WARNING) r.str();
  const out = q.docs.map(() => r.str());
  if (r.truncated) throw new Error('failed to parse remote reply: truncated excerpts');
  return out;
}

/**
 * Runs one SphinxQL write on a remote searchd (the SPHINXQL command, as Sphinx 2.2 masters forward
 * UPDATE): the reply body is the MySQL OK or ERR packet; resolves with the affected-row count.
 */
export async function sphinxqlAgent(to: AgentAddress, sql: string, t?: AgentRequestOptions): Promise<number> {
  const reply = await agentRequest(to, Cmd.SPHINXQL, 0x100, new ApiWriter().str(sql).bytes(), t);
  const r = new ApiReader(reply.body);
  if (reply.status === Status.ERROR || reply.status === Status.RETRY) throw new Error(`remote error: ${r.str()}`);
  const packet = reply.body.subarray(4); // 3-byte length and sequence id
  if (packet[0] === 0xff) throw new Error(`remote error: ${packet.toString('utf8', 9)}`); // errno, '#', SQLSTATE
  if (packet[0] !== 0x00) throw new Error('failed to parse remote reply: not an OK packet');
  const first = packet[1]!;
  if (first < 251) return first;
  if (first === 0xfc) return packet.readUInt16LE(2);
  if (first === 0xfd) return packet.readUIntLE(2, 3);
  return Number(packet.readBigUInt64LE(2));
}
