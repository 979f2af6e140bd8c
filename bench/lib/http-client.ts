/**
 * The benchmarks' HTTP client, one per benchmark client (one keep-alive connection, one request at a time):
 * undici's `Pool` of one connection and its `request()` (undici is the engine of Node's own fetch; `request`
 * is its API without fetch's web-stream layers), or with `--http-client node` node:http over a one-socket
 * keep-alive agent, the harness's client until session 20. Client CPU ms a single-row INSERT from 16 clients
 * (session 20, `node dist/bench/insert/insert-ab.bench.js --client-ab 1 [--json 1]`, medians, load 9-16): /sql
 * node:http 0.091 and 0.089, undici 0.059 and 0.072 (lower in 10 of 10 alternated pairs), mysql2 0.048 and
 * 0.062; /insert node:http 0.093, undici 0.090 (3 of 4). Session 16's highlight /search (40 kB replies) found
 * undici 7 about as heavy as node:http (bench/http/http-clients.bench.ts).
 */
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { argString } from './bench-util.js';

export interface HttpReply { status: number; body: string }

/**
 * Which client the harness speaks HTTP with: `--http-client undici` (the default), `node` (node:http) or
 * `lean` (LeanHttpClient below: the request written and the reply read by hand, the least client CPU).
 */
export type HttpClientName = 'undici' | 'node' | 'lean';

function clientName(v: string | null): HttpClientName {
  if (v === null || v === 'undici') return 'undici';
  if (v === 'node' || v === 'lean') return v;
  throw new Error(`--http-client ${v}: undici, node or lean`);
}

/** The harness's HTTP client, from `--http-client` (default undici); benches print it in their header. */
export const HTTP_CLIENT: HttpClientName = clientName(argString('http-client'));

/** One benchmark client's HTTP connection: POSTs to 127.0.0.1:`port`, one at a time. */
export interface BenchAgent {
  readonly client: HttpClientName;
  post(port: number, path: string, body: string, contentType?: string): Promise<HttpReply>;
  /**
   * Opens the keep-alive connection to `port` now, by one small request (SHOW VERSION), instead of inside the
   * first timed request: mysql2's connection is made (and its handshake done) in a peer's open(), before the
   * clock starts, and the HTTP one was made by the first timed INSERT (16 connects, each a TCP handshake
   * and a new server socket, inside a 2,000-statement phase of ~0.4 s).
   */
  connect(port: number): Promise<void>;
  destroy(): void;
}

/** The request that opens a connection: a statement every server answers without touching a table. */
async function openWith(agent: BenchAgent, port: number): Promise<void> {
  const r = await agent.post(port, '/sql?mode=raw', 'SHOW VERSION');
  if (r.status !== 200) throw new Error(`quarry: opening a connection: ${r.status} ${r.body.slice(0, 200)}`);
}

/** node:http over a keep-alive agent with one socket (the reply decoded as UTF-8 chunk by chunk). */
function nodeAgent(): BenchAgent {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const self: BenchAgent = {
    client: 'node',
    connect: (port) => openWith(self, port),
    post: (port, path, body, contentType) => new Promise((resolve, reject) => {
      const headers = contentType ? { 'Content-Type': contentType } : undefined;
      const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => { text += c; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    }),
    destroy: () => agent.destroy(),
  };
  return self;
}

/** undici: a keep-alive Pool of one connection per port (made on first use), as an application would hold one. */
function undiciAgent(): BenchAgent {
  const pools = new Map<number, Pool>();
  const self: BenchAgent = {
    client: 'undici',
    connect: (port) => openWith(self, port),
    post: async (port, path, body, contentType) => {
      let pool = pools.get(port);
      if (!pool) pools.set(port, pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 }));
      const r = await pool.request({ path, method: 'POST', body, headers: contentType ? { 'content-type': contentType } : undefined });
      return { status: r.statusCode, body: await r.body.text() };
    },
    destroy: () => {
      for (const p of pools.values()) void p.destroy();
      pools.clear();
    },
  };
  return self;
}

/** LeanHttpClient: one connection per port (made on first use or by connect()). */
function leanAgent(): BenchAgent {
  const clients = new Map<number, LeanHttpClient>();
  const self: BenchAgent = {
    client: 'lean',
    connect: (port) => openWith(self, port),
    post: (port, path, body, contentType) => {
      let c = clients.get(port);
      if (!c) clients.set(port, c = new LeanHttpClient(port));
      return c.post(path, body, contentType);
    },
    destroy: () => {
      for (const c of clients.values()) c.close();
      clients.clear();
    },
  };
  return self;
}

/** One benchmark client of the harness's HTTP client (`kind` overrides `--http-client`). */
export function clientAgent(kind: HttpClientName = HTTP_CLIENT): BenchAgent {
  return kind === 'node' ? nodeAgent() : kind === 'lean' ? leanAgent() : undiciAgent();
}

/** The header line a bench prints: which HTTP client it measured with. */
export function httpClientNote(): string {
  if (HTTP_CLIENT === 'lean') return 'HTTP client: LeanHttpClient, one keep-alive connection written and read by hand (--http-client lean)';
  return HTTP_CLIENT === 'node' ? 'HTTP client: node:http keep-alive agent (--http-client node)' : `HTTP client: undici ${undiciVersion()} Pool.request, one keep-alive connection a client (--http-client node for node:http)`;
}

function undiciVersion(): string {
  const pkg = new URL('./package.json', import.meta.resolve('undici'));
  try {
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

/** POSTs `body` to `path` and resolves with the status and the whole reply text. */
export function postText(agent: BenchAgent, port: number, path: string, body: string, contentType?: string): Promise<HttpReply> {
  return agent.post(port, path, body, contentType);
}

/** As postText, but rejects unless the reply is 200 without an error (`"error":"..."`, `"errors":true`). */
export async function postOk(agent: BenchAgent, port: number, path: string, body: string, contentType?: string): Promise<string> {
  const r = await postText(agent, port, path, body, contentType);
  if (r.status !== 200 || /"error":"[^"]|"errors":true|"error":\{/.test(r.body)) throw new Error(`quarry ${path}: ${r.status} ${r.body.slice(0, 300)}`);
  return r.body;
}

/** `/bulk` NDJSON body inserting `docs` into `table` (each line `{"insert":{"table",id,"doc"}}`). */
export function bulkBody(table: string, docs: { id: number; title: string; body: string }[]): string {
  let out = '';
  for (const d of docs) {
    out += `${JSON.stringify({ insert: { table, id: d.id, doc: { title: d.title, body: d.body, len: d.body.length } } })}\n`;
  }
  return out;
}

/**
 * One keep-alive HTTP/1.1 connection written and read by hand, one request at a time: the request node:http
 * sends (POST, Host, Connection: keep-alive, Content-Length, the body), the reply read by its Content-Length.
 * The server does the same work as for node:http's; the client costs less CPU on the cores it shares with
 * the server (100k gcide, /sql?mode=raw from 8 clients: node:http ~0.05 ms a query against mysql2's ~0.03).
 */
export class LeanHttpClient {
  readonly #socket: net.Socket;
  readonly #ready: Promise<void>;
  #chunks: Buffer[] = [];
  #pending: { resolve(r: HttpReply): void; reject(e: Error): void } | undefined;

  constructor(readonly port: number) {
    this.#socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
    this.#ready = new Promise((resolve, reject) => { this.#socket.once('connect', resolve).once('error', reject); });
    this.#socket.on('data', (c: Buffer) => { this.#chunks.push(c); this.#parse(); });
    this.#socket.on('error', (e) => this.#fail(e));
    this.#socket.on('close', () => this.#fail(new Error('connection closed')));
  }

  async post(path: string, body: string, contentType?: string): Promise<HttpReply> {
    await this.#ready;
    if (this.#pending) throw new Error('LeanHttpClient: one request at a time');
    const bytes = Buffer.from(body, 'utf8');
    const type = contentType ? `Content-Type: ${contentType}\r\n` : '';
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${this.port}\r\n${type}Connection: keep-alive\r\nContent-Length: ${bytes.length}\r\n\r\n`;
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket.write(Buffer.concat([Buffer.from(head, 'latin1'), bytes]));
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #parse(): void {
    const buf = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [buf];
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = buf.toString('latin1', 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) return this.#fail(new Error(`reply without Content-Length: ${head.slice(0, 200)}`));
    const total = end + 4 + Number(length[1]);
    if (buf.length < total) return;
    if (buf.length > total) return this.#fail(new Error('bytes after the reply'));
    this.#chunks = [];
    const p = this.#pending;
    this.#pending = undefined;
    p?.resolve({ status: Number(head.slice(9, 12)), body: buf.toString('utf8', end + 4, total) });
  }

  #fail(e: Error): void {
    const p = this.#pending;
    this.#pending = undefined;
    p?.reject(e);
  }
}

/** The part of undici's `Client` the benches use (typed here: undici is optional, not a dependency). */
interface UndiciClient {
  request(o: { path: string; method: string; body: string; headers?: Record<string, string> }): Promise<{ statusCode: number; body: { text(): Promise<string> } }>;
  close(): Promise<void>;
}

/** One keep-alive connection by undici's `Client.request` (the client under Node's fetch, without fetch's layers). */
export interface UndiciPoster { version: string; post(path: string, body: string, contentType?: string): Promise<HttpReply>; close(): Promise<void> }

/**
 * An undici client of `port`, from `url` (undici's index.js) or the `undici` package if installed, else
 * undefined: undici is no dependency of quarry, so the benches that offer it say when it is missing.
 */
export async function undiciClient(port: number, url?: string): Promise<UndiciPoster | undefined> {
  let href: string;
  try {
    href = url ?? import.meta.resolve('undici');
  } catch {
    return undefined;
  }
  let mod: { Client: new (origin: string, o?: Record<string, unknown>) => UndiciClient };
  try {
    mod = (await import(href)) as typeof mod;
  } catch {
    return undefined;
  }
  const pkg = new URL('./package.json', href); // index.js sits at the package's root
  const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  const client = new mod.Client(`http://127.0.0.1:${port}`, { pipelining: 1 });
  return {
    version,
    post: async (path, body, contentType) => {
      const r = await client.request({ path, method: 'POST', body, headers: contentType ? { 'content-type': contentType } : undefined });
      return { status: r.statusCode, body: await r.body.text() };
    },
    close: () => client.close(),
  };
}
