/**
 * One request to a remote searchd (quarry, Sphinx or Manticore) over the binary API: connect within
 * the connect timeout, exchange protocol versions, send one command, read one reply within the
 * query timeout. Failures are rejected with searchd's wording so a master can report them.
 */
import { connect } from 'node:net';
import type { ApiQuery } from './search-request.js';
import { CLIENT_SEARCH_VERSION, readSearchResults, writeSearchQuery, type AgentResult } from './search-write.js';
import { ApiReader, ApiWriter, Cmd, Status } from './wire.js';

export interface AgentAddress {
  host: string;
  port: number;
}

export interface AgentTimeouts {
  connectMs: number;
  queryMs: number;
}

export const DEFAULT_TIMEOUTS: AgentTimeouts = { connectMs: 1000, queryMs: 3000 };

/** errno values and texts of the failures a connect() meets (Linux numbering, as searchd prints them). */
const CONNECT_ERRORS: Record<string, [number, string]> = {
  ECONNREFUSED: [111, 'Connection refused'], EHOSTUNREACH: [113, 'No route to host'],
  ENETUNREACH: [101, 'Network is unreachable'], ETIMEDOUT: [110, 'Connection timed out'], ECONNRESET: [104, 'Connection reset by peer'],
};

/** searchd's wording of a failed connect: `connect() failed: errno=111, Connection refused`. */
function connectFailure(e: NodeJS.ErrnoException): string {
  const known = e.code ? CONNECT_ERRORS[e.code] : undefined;
  if (known) return `connect() failed: errno=${known[0]}, ${known[1]}`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `failed to lookup host: ${e.message}`;
  return `connect() failed: ${e.message}`;
}

/** searchd's wording of a failure after connecting: `receiving failure (errno=104, msg=Connection reset by peer)`. */
function receiveFailure(e: NodeJS.ErrnoException): string {
  if (e.code === 'EPIPE') return 'error when sending data: Broken pipe';
  const known = e.code ? CONNECT_ERRORS[e.code] : undefined;
  return known ? `receiving failure (errno=${known[0]}, msg=${known[1]})` : `receiving failure (${e.message})`;
}

/** Sends `cmd` and resolves with the reply's status and body. */
export function agentRequest(to: AgentAddress, cmd: number, ver: number, body: Buffer, t: AgentTimeouts = DEFAULT_TIMEOUTS): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(to.port, to.host);
    let got = Buffer.alloc(0);
    let connected = false;
    const fail = (message: string) => { socket.destroy(); reject(new Error(message)); };
    const timer = setTimeout(() => fail(connected ? 'query timed out' : 'connect and query timed out'), t.connectMs);
    socket.setNoDelay(true);
    socket.once('connect', () => {
      connected = true;
      clearTimeout(timer);
      const head = Buffer.alloc(12);
      head.writeUInt32BE(1, 0);
      head.writeUInt16BE(cmd, 4);
      head.writeUInt16BE(ver, 6);
      head.writeUInt32BE(body.length, 8);
      socket.write(Buffer.concat([head, body]));
      const query = setTimeout(() => fail('query timed out'), t.queryMs);
      socket.once('close', () => clearTimeout(query));
    });
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      // 4 bytes of server version, then the 8-byte reply header and its body
      if (got.length < 12) return;
      const len = got.readUInt32BE(8);
      if (got.length < 12 + len) return;
      socket.destroy();
      resolve({ status: got.readUInt16BE(4), body: got.subarray(12, 12 + len) });
    });
    socket.once('error', (e: NodeJS.ErrnoException) => { clearTimeout(timer); fail(connected ? receiveFailure(e) : connectFailure(e)); });
    socket.once('close', () => { clearTimeout(timer); fail('agent closed connection'); });
  });
}

/** Runs `queries` on one agent; a whole-request error is rejected, a per-query error is in its result. */
export async function searchAgent(to: AgentAddress, queries: ApiQuery[], t?: AgentTimeouts): Promise<AgentResult[]> {
  return (await searchAgentSized(to, queries, t)).results;
}

/** searchAgent, with the reply's size in bytes (header included) for the master's statistics. */
export async function searchAgentSized(to: AgentAddress, queries: ApiQuery[], t?: AgentTimeouts): Promise<{ results: AgentResult[]; bytes: number }> {
  const w = new ApiWriter().u32(0).u32(queries.length);
  for (const q of queries) writeSearchQuery(w, q);
  const reply = await agentRequest(to, Cmd.SEARCH, CLIENT_SEARCH_VERSION, w.bytes(), t);
  if (reply.status === Status.ERROR || reply.status === Status.RETRY) {
    const len = reply.body.length >= 4 ? reply.body.readUInt32BE(0) : 0;
    throw new Error(`remote error: ${reply.body.toString('utf8', 4, 4 + len)}`);
  }
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
export async function excerptAgent(to: AgentAddress, q: ExcerptRequest, t?: AgentTimeouts): Promise<string[]> {
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
export async function sphinxqlAgent(to: AgentAddress, sql: string, t?: AgentTimeouts): Promise<number> {
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
