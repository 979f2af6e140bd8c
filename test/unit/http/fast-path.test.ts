// The fast path for POST /sql, /search, /bulk and the JSON writes answers exactly as the Hono app
// does, shares its sessions, and leaves every other request to the app.
import { createServer, request, Agent, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../src/http/app.js';
import { createFastPath } from '../../../src/http/fast-path.js';
import { socketSessions } from '../../../src/http/socket-sessions.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const MAX_BODY = 4096;

const t = useTempEngine('fast-path', async (e) => {
  await e.exec('CREATE TABLE t (title text, n int)');
  await e.exec("INSERT INTO t (id, title, n) VALUES (1, 'red apple', 5), (2, 'green apple', 7), (3, 'red car', 9)");
  expect(await e.rows('SELECT COUNT(*) FROM t')).toEqual([[3n]]);
});

let server: Server;
let port = 0;
/** Requests the fast path took (and, for those it declined, nothing). */
let taken: string[] = [];
/** Errors the handlers reported as unexpected. */
let reported: unknown[] = [];

beforeEach(async () => {
  const sessions = socketSessions();
  reported = [];
  const onInternalError = (e: unknown) => { reported.push(e); };
  const app = createHttpApp({ engine: t.engine, maxBodyBytes: MAX_BODY, sessions, onInternalError });
  const fast = createFastPath({ engine: t.engine, maxBodyBytes: MAX_BODY, sessions, onInternalError });
  const slow = getRequestListener(app.fetch);
  taken = [];
  server = createServer((req, res) => {
    if (fast(req, res)) taken.push(`${req.method} ${req.url}`);
    else void slow(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

interface Reply { status: number; type: string | undefined; text: string }

function send(method: string, path: string, body: string, agent?: Agent, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The same request answered by the app alone (no fast path, no socket). */
async function viaApp(path: string, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const app = createHttpApp({ engine: t.engine, maxBodyBytes: MAX_BODY, onInternalError: () => {} });
  const res = await app.request(path, { method: 'POST', body, headers });
  return { status: res.status, type: res.headers.get('content-type') ?? undefined, text: await res.text() };
}

describe('fast path', () => {
  const cases: [string, string][] = [
    ['/sql?mode=raw', 'SELECT id, n, weight() FROM t WHERE MATCH(\'red\') ORDER BY id ASC'],
    ['/sql?mode=raw', 'SELECT * FROM nope'],
    ['/sql?mode=raw', 'SHOW TABLES; SELECT COUNT(*) FROM t'],
    ['/sql', "SELECT id FROM t WHERE MATCH('apple')"],
    ['/sql', 'query=SELECT%20id%20FROM%20t%20WHERE%20n%3E6'],
    ['/sql', 'DELETE FROM t WHERE id=1'],
    ['/sql', 'SELEC oops'],
    ['/sql', ''],
    ['/search', '{"table":"t","query":{"match":{"title":"apple"}},"sort":[{"id":"asc"}]}'],
    ['/json/search', '{"table":"t","query":{"match":{"*":"car"}}}'],
    ['/search', '{"table":"t",'],
    ['/search', '{"table":"missing"}'],
    ['/search', ''],
  ];
  it.each(cases)('POST %s %s answers as the app does', async (path, body) => {
    const fast = await send('POST', path, body);
    expect(taken).toEqual([`POST ${path}`]);
    // "took" is the query's time in ms: the one part of a reply that may differ between two runs
    const untimed = (r: Reply) => ({ ...r, text: r.text.replace(/"took":\d+/, '"took":0') });
    expect(untimed(fast)).toEqual(untimed(await viaApp(path, body)));
  });

  // Writes that answer the same when repeated (replaces, updates to the same value, errors), so the
  // app's answer after the fast path's is comparable; ids, unicode, escapes and 64-bit values included.
  const NDJSON = { 'Content-Type': 'application/x-ndjson' };
  const writes: [string, string, Record<string, string>][] = [
    ['/replace', '{"table":"t","id":18446744073709551615,"doc":{"title":"été \\"quoted\\" \\u00e9 \\ud83d\\ude00 tab\\t","n":-3}}', {}],
    ['/json/index', '{"index":"t","id":12,"doc":{"title":"a:b","n":2147483647}}', {}],
    ['/insert', '{"table":"t","id":1,"doc":{"title":"dup"}}', {}],
    ['/create', '{"table":"t","id":5,"doc":{"nope":1}}', {}],
    ['/replace', '{"table":"t","id":7,"doc":{"n":1.50}}', {}],
    ['/replace', '{"table":"t","id":5,"id":6,"doc":{}}', {}],
    ['/insert', '{"table":"t",', {}],
    ['/update', '{"table":"t","id":2,"doc":{"n":7}}', {}],
    ['/update', '{"table":"t","query":{"match":{"title":"green"}},"doc":{"n":7}}', {}],
    ['/delete', '{"table":"t","id":9007199254740993}', {}],
    ['/json/delete', '{"table":"missing","id":1}', {}],
    ['/bulk', '{"replace":{"table":"t","id":3,"doc":{"title":"red car","n":9}}}\n{"replace":{"table":"t","id":2,"doc":{"title":"ü"}}}\n', NDJSON],
    ['/bulk', '{"replace":{"table":"t","id":3,"doc":{"title":"red car"}}}\n\n{"insert":{"table":"t","id":1,"doc":{}}}\n', NDJSON],
    ['/json/bulk', '{"replace":{"table":"t","id":3,"doc":{}}}\n{"insert":{"table":"t",\n', NDJSON],
    ['/bulk', '{"replace":{"table":"t","id":3,"doc":{}}}\n', { 'Content-Type': 'text/plain' }],
    ['/bulk', '{"replace":{"table":"t","id":3,"doc":{}}}\n', { 'Content-Type': 'application/json' }],
  ];
  it.each(writes)('POST %s %s answers as the app does', async (path, body, headers) => {
    const fast = await send('POST', path, body, undefined, headers);
    expect(taken).toEqual([`POST ${path}`]);
    expect(fast).toEqual(await viaApp(path, body, headers));
  });

  it('answers a /bulk without Content-Type as the app does for one', async () => {
    const r = await send('POST', '/bulk', '{"replace":{"table":"t","id":3,"doc":{}}}\n');
    expect(taken).toEqual(['POST /bulk']);
    expect(r.status).toBe(400);
    expect(r.text).toBe('{"error":{"type":"parse_exception","reason":"Content-Type must be set"},"status":400}');
  });

  it('keeps the connection\'s session: SHOW META through the app sees a fast-path SELECT', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await send('POST', '/sql?mode=raw', "SELECT id FROM t WHERE MATCH('apple')", agent);
      const meta = await send('POST', '/cli_json', 'SHOW META', agent);
      expect(taken).toEqual(['POST /sql?mode=raw']);
      expect(meta.text).toContain('"Value":"2"');
    } finally {
      agent.destroy();
    }
  });

  it('drops a request whose client leaves mid-body, and goes on serving', async () => {
    const sock = connect(port, '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    sock.write('POST /sql?mode=raw HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nSHOW');
    await new Promise((r) => setTimeout(r, 50));
    sock.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const after = await send('POST', '/sql?mode=raw', 'SHOW TABLES');
    expect(after.status).toBe(200);
    expect(taken).toEqual(['POST /sql?mode=raw', 'POST /sql?mode=raw']);
    expect(reported).toEqual([]);
  });

  it('leaves other methods, paths, oversized and chunked bodies to the app', async () => {
    expect((await send('GET', '/sql?mode=raw&query=SHOW%20TABLES', '')).status).toBe(200);
    expect((await send('POST', '/cli_json', 'SHOW TABLES')).status).toBe(200);
    expect((await send('POST', '/sql/', 'SHOW TABLES')).status).toBe(501);
    const big = await send('POST', '/sql?mode=raw', `SELECT ${'1,'.repeat(MAX_BODY)}1`);
    expect(big.status).toBe(413);
    const chunked = await send('POST', '/sql?mode=raw', 'SHOW TABLES', undefined, { 'Transfer-Encoding': 'chunked' });
    expect(chunked.status).toBe(200);
    expect(taken).toEqual([]);
  });
});
