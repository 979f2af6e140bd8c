// The lean HTTP/1.1 server answers byte for byte as node:http does (Date and `took` aside), over real
// sockets: each request goes to a node:http server alone and to the same server with the lean one in
// front, including malformed, pipelined, split and half-closed requests, and the timeouts.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../../src/engine/index.js';
import { createHttpApp } from '../../../../src/http/app.js';
import { createFastPath } from '../../../../src/http/fast-path.js';
import { installLeanServer, type LeanServer } from '../../../../src/http/lean/lean-server.js';
import { socketSessions } from '../../../../src/http/socket-sessions.js';
import { answerClientError, MAX_HEADER_BYTES } from '../../../../src/server/http-limits.js';

const MAX_BODY = 4096;
let dir = '';
let engine: Engine;
/** Requests the lean server answered (method and URL). */
const leanTook: string[] = [];
const internalErrors: unknown[] = [];
let nodeOnly: { server: Server; port: number };
let withLean: { server: Server; port: number; lean: LeanServer };

async function start(lean: boolean, requestTimeout = 300_000) {
  const sessions = socketSessions();
  const onInternalError = (e: unknown) => { internalErrors.push(e); };
  const app = createHttpApp({ engine, maxBodyBytes: MAX_BODY, sessions, onInternalError });
  const fast = createFastPath({ engine, maxBodyBytes: MAX_BODY, sessions, onInternalError });
  const slow = getRequestListener(app.fetch);
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval: 100, requestTimeout, headersTimeout: Math.min(requestTimeout, 60_000) }, (req, res) => { if (!fast(req, res)) void slow(req, res); });
  const l = lean ? installLeanServer(server, {
    engine, maxBodyBytes: MAX_BODY, sessions, onInternalError, maxHeadBytes: MAX_HEADER_BYTES,
    onRequest: (_s, method, url) => { leanTook.push(`${method} ${url}`); return () => undefined; },
  }) : undefined;
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, lean: l! };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-lean-'));
  engine = await openEngine({ dataDir: join(dir, 'data') });
  const s = newSession();
  await engine.execute('CREATE TABLE t (title text, n int)', s);
  await engine.execute("INSERT INTO t (id, title, n) VALUES (1, 'red apple', 5), (2, 'green apple', 7), (3, 'red car été', 9)", s);
  nodeOnly = await start(false);
  withLean = await start(true);
});

afterAll(async () => {
  for (const { server } of [nodeOnly, withLean]) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Complete responses in `text` (Content-Length or chunked framing; a head without either ends at close). */
function completeResponses(text: string): number {
  let n = 0;
  let at = 0;
  for (;;) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) return n;
    const head = text.slice(at, end);
    if (/^HTTP\/1\.1 1\d\d /.test(head)) { at = end + 4; n++; continue; }
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length) {
      const next = end + 4 + Number(length[1]);
      if (text.length < next) return n;
      at = next;
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const last = text.indexOf('\r\n0\r\n\r\n', end);
      if (last < 0) return n;
      at = last + 7;
    } else {
      return n;
    }
    n++;
  }
}

interface Exchange { text: string; closed: boolean }

/**
 * Writes `parts` (a pause between them) and reads until `replies` responses came and the server
 * stayed quiet for a moment, or it closed the connection; `end` half-closes after the last part.
 */
async function exchange(
  port: number, parts: string[], replies: number, opts: { end?: boolean; waitClose?: boolean; deadlineMs?: number; head?: boolean } = {},
): Promise<Exchange> {
  const s: Socket = connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  let text = '';
  let closed = false;
  s.on('data', (d: Buffer) => { text += d.toString('latin1'); });
  const closing = new Promise<void>((r) => s.once('close', () => { closed = true; r(); }));
  await new Promise((r) => s.once('connect', r));
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 30));
    s.write(parts[i]!, 'latin1');
  }
  if (opts.end) s.end();
  const deadline = Date.now() + (opts.deadlineMs ?? 3_000);
  const waiting = () => opts.waitClose || completeResponses(text) < replies || (opts.head && !text.includes('\r\n\r\n'));
  while (!closed && Date.now() < deadline && waiting()) {
    await Promise.race([closing, new Promise((r) => setTimeout(r, 10))]);
  }
  if (!closed) await Promise.race([closing, new Promise((r) => setTimeout(r, 30))]);
  s.destroy();
  return { text, closed };
}

/**
 * The parts of a reply that may differ between two servers or runs: the Date header and the query
 * time, and with it the length (checked by the framing: completeResponses counts on it).
 */
function untimed(e: Exchange): Exchange {
  const text = e.text.replace(/\r\nDate: [^\r]*/g, '\r\nDate: -').replace(/"took":\d+/g, '"took":0');
  return { ...e, text: /"took":/.test(text) ? text.replace(/\r\nContent-Length: \d+/g, '\r\nContent-Length: -') : text };
}

const post = (path: string, body: string, headers = '') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const latin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

type Case = [name: string, parts: string[], replies: number, lean: string[], opts?: { end?: boolean; waitClose?: boolean; head?: boolean }];
const search = '{"table":"t","query":{"match":{"title":"apple"}},"sort":[{"id":"asc"}]}';
const cases: Case[] = [
  ['a /sql query', [post('/sql?mode=raw', "SELECT id, n, weight() FROM t WHERE MATCH('red') ORDER BY id ASC")], 1, ['POST /sql?mode=raw']],
  ['a /sql form body', [post('/sql', 'query=SELECT%20id%20FROM%20t%20WHERE%20n%3E6')], 1, ['POST /sql']],
  ['a /sql error', [post('/sql', 'SELEC oops')], 1, ['POST /sql']],
  ['a /search', [post('/search', search)], 1, ['POST /search']],
  ['a /json/search with text in UTF-8', [latin1(post('/json/search', '{"table":"t","query":{"match":{"*":"été"}}}'))], 1, ['POST /json/search']],
  ['a /search body that is not JSON', [post('/search', '{"table":"t",')], 1, ['POST /search']],
  ['an empty /search body', [post('/search', '')], 1, ['POST /search']],
  ['a byte order mark before the body', [latin1(post('/search', `\ufeff${search}`))], 1, ['POST /search']],
  ['Connection: close', [post('/sql?mode=raw', 'SHOW TABLES', 'Connection: close\r\n')], 1, ['POST /sql?mode=raw'], { waitClose: true }],
  ['Connection: keep-alive in any case', [post('/sql?mode=raw', 'SHOW TABLES', 'connection: Keep-Alive\r\n')], 1, ['POST /sql?mode=raw']],
  ['three pipelined requests', [post('/sql?mode=raw', 'SHOW TABLES') + post('/search', search) + post('/sql', 'SELECT 1')], 3,
    ['POST /sql?mode=raw', 'POST /search', 'POST /sql']],
  ['a GET between pipelined POSTs', [post('/sql?mode=raw', 'SHOW TABLES') + 'GET /sql?mode=raw&query=SHOW%20TABLES HTTP/1.1\r\nHost: x\r\n\r\n' +
    post('/sql?mode=raw', 'SHOW TABLES')], 3, ['POST /sql?mode=raw']],
  ['a body after its head', [post('/search', search).replace(/\r\n\r\n[^]*/, '\r\n\r\n'), search], 1, ['POST /search']],
  ['a body in three pieces', [post('/search', search).slice(0, -40), search.slice(-40, -20), search.slice(-20)], 1, ['POST /search']],
  ['a head in two pieces', [post('/search', search).slice(0, 20), post('/search', search).slice(20)], 1, []],
  ['a request, then a half close', [post('/sql?mode=raw', 'SHOW TABLES')], 1, ['POST /sql?mode=raw'], { end: true, waitClose: true }],
  ['half a body, then a half close', [post('/search', search).slice(0, -5)], 1, [], { end: true, waitClose: true }],
  ['HTTP/1.0', ['POST /sql?mode=raw HTTP/1.0\r\nHost: x\r\nContent-Length: 11\r\n\r\nSHOW TABLES'], 1, [], { waitClose: true }],
  ['no Host', ['POST /sql?mode=raw HTTP/1.1\r\nContent-Length: 11\r\n\r\nSHOW TABLES'], 1, [], { waitClose: true }],
  ['an empty Host', ['POST /sql?mode=raw HTTP/1.1\r\nHost:\r\nContent-Length: 11\r\n\r\nSHOW TABLES'], 1, [], { waitClose: true }],
  ['a Content-Length that is not a number', ['POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'], 1, [], { waitClose: true }],
  ['two Content-Lengths', ['POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nSHOW '], 1, [], { waitClose: true }],
  ['a folded header', ['POST /sql HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\nContent-Length: 8\r\n\r\nSELECT 1'], 1, [], { waitClose: true }],
  ['a bare LF', ['POST /sql HTTP/1.1\nHost: x\r\nContent-Length: 8\r\n\r\nSELECT 1'], 1, [], { waitClose: true }],
  ['a control byte in a header', ['POST /sql HTTP/1.1\r\nHost: x\x01\r\nContent-Length: 8\r\n\r\nSELECT 1'], 1, [], { waitClose: true }],
  ['a space in the target', ['POST /sql?a b HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\nSELECT 1'], 1, [], { waitClose: true }],
  ['garbage', ['\x00\x01\x02 hello\r\n\r\n'], 1, [], { waitClose: true }],
  ['a chunked body', ['POST /sql?mode=raw HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nb\r\nSHOW TABLES\r\n0\r\n\r\n'], 1, []],
  ['Expect: 100-continue', ['POST /sql?mode=raw HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n', 'SHOW TABLES'], 2, []],
  ['a body over the limit', [post('/sql?mode=raw', `SELECT ${'1,'.repeat(MAX_BODY)}1`)], 1, []],
  // a HEAD reply is a head alone (its Content-Length counts a body that is not sent): wait for the head
  ['HEAD', ['HEAD /sql?mode=raw&query=SHOW%20TABLES HTTP/1.1\r\nHost: x\r\n\r\n'], 0, [], { head: true }],
  ['an unknown endpoint', [post('/nope', '{}')], 1, []],
  ['a trailing slash', [post('/sql/', 'SELECT 1')], 1, []],
  ['GET /search with a body', ['GET /search HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n{"table":"t"}'.replace('12', '13')], 1, []],
  ['an upgrade', ['POST /sql HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nContent-Length: 8\r\n\r\nSELECT 1'], 1, []],
];

describe('the lean server against node:http', () => {
  it.each(cases)('%s', async (_name, parts, replies, lean, opts) => {
    leanTook.length = 0;
    const reference = await exchange(nodeOnly.port, parts, replies, opts);
    expect(leanTook).toEqual([]);
    const got = await exchange(withLean.port, parts, replies, opts);
    expect(untimed(got)).toEqual(untimed(reference));
    expect(completeResponses(got.text)).toBe(replies);
    expect(leanTook).toEqual(lean);
    expect(internalErrors).toEqual([]);
  });

  it('answers a megabyte of pipelined requests (more than it reads ahead while busy), in order', async () => {
    leanTook.length = 0;
    const n = 1500;
    const pad = `/* ${'x'.repeat(700)} */`;
    const all = Array.from({ length: n }, (_, i) => post('/sql?mode=raw', `SELECT ${i} AS k ${pad}`)).join('');
    expect(all.length).toBeGreaterThan(1 << 20);
    const { text } = await exchange(withLean.port, [all], n, { deadlineMs: 20_000 });
    expect(completeResponses(text)).toBe(n);
    const ks = [...text.matchAll(/"data":\[\n\{"k":(\d+)\}\n\]/g)].map((m) => Number(m[1]));
    expect(ks).toEqual(Array.from({ length: n }, (_, i) => i));
    // The lean server takes the requests from the first; a head that TCP splits across two reads (which a
    // loaded machine makes likelier) hands the rest of the connection to node:http, still in order.
    expect(leanTook.length).toBeGreaterThan(0);
    expect(leanTook.length).toBeLessThanOrEqual(n);
  });

  it('keeps one session per connection: SHOW META through node:http sees a lean SELECT', async () => {
    leanTook.length = 0;
    const { text } = await exchange(withLean.port, [post('/sql?mode=raw', "SELECT id FROM t WHERE MATCH('apple')") + post('/cli_json', 'SHOW META')], 2);
    expect(leanTook).toEqual(['POST /sql?mode=raw']);
    expect(text).toContain('"Value":"2"');
  });
});

describe('the lean server\'s timeouts', () => {
  it('drops a body that does not arrive within the request timeout, as node:http does', async () => {
    const servers = [await start(false, 300), await start(true, 300)];
    try {
      for (const { port } of servers) {
        const started = Date.now();
        const e = await exchange(port, [post('/search', search).slice(0, -5)], 0, { waitClose: true });
        expect(e).toEqual({ text: '', closed: true });
        expect(Date.now() - started).toBeLessThan(2_900);
      }
    } finally {
      for (const { server } of servers) {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  it('closes a keep-alive connection idle for the keep-alive timeout, not one whose query runs', async () => {
    withLean.server.keepAliveTimeout = 200;
    try {
      const s = connect(withLean.port, '127.0.0.1');
      let text = '';
      s.on('data', (d: Buffer) => { text += d.toString('latin1'); });
      const closed = new Promise<number>((r) => s.once('close', () => r(Date.now())));
      s.write(post('/sql?mode=raw', 'SHOW TABLES'));
      await new Promise((r) => setTimeout(r, 120));
      s.write(post('/sql?mode=raw', 'SHOW TABLES'));
      const second = Date.now();
      const at = await closed;
      expect(completeResponses(text)).toBe(2);
      expect(text).toContain('Keep-Alive: timeout=0');
      expect(at - second).toBeGreaterThanOrEqual(150);
    } finally {
      withLean.server.keepAliveTimeout = 65_000;
    }
  });

  it('keeps a connection that has sent no request yet past the keep-alive timeout and sends it nothing, as node:http does', async () => {
    const servers = [nodeOnly, withLean];
    for (const { server } of servers) server.keepAliveTimeout = 200;
    try {
      const answered = await Promise.all(servers.map(async ({ port }) => {
        const s = connect(port, '127.0.0.1');
        let text = '';
        let closed = false;
        s.on('data', (d: Buffer) => { text += d.toString('latin1'); });
        s.once('close', () => { closed = true; });
        await new Promise((r) => s.once('connect', r));
        await new Promise((r) => setTimeout(r, 450));
        const open = !closed;
        const bytesBeforeRequest = text.length;
        s.write(post('/sql?mode=raw', 'SHOW TABLES'));
        await new Promise((r) => setTimeout(r, 150));
        s.destroy();
        return { open, replies: completeResponses(text), bytesBeforeRequest };
      }));
      expect(answered[1]).toEqual(answered[0]);
      expect(answered[1]).toEqual({ open: true, replies: 1, bytesBeforeRequest: 0 });
    } finally {
      for (const { server } of servers) server.keepAliveTimeout = 65_000;
    }
  });

  it('closes idle connections at once on close, and busy ones after their reply', async () => {
    const other = await start(true);
    const idle = connect(other.port, '127.0.0.1');
    await new Promise((r) => idle.once('connect', r));
    const idleClosed = new Promise((r) => idle.once('close', r));
    await new Promise((r) => setTimeout(r, 20));
    const closed = new Promise((r) => other.server.close(r));
    other.server.closeIdleConnections();
    other.lean.closeIdleConnections();
    await idleClosed;
    await closed;
  });
});
