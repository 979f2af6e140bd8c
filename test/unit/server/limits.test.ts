// searchd limits under abuse: max_connections refuses clearly without harming open connections,
// client_timeout cuts slow senders (slowloris) on both listeners, max_packet_size bounds bodies.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEngine } from '../../../src/engine/index.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';

let dir: string;
let server: RunningServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-limits-'));
  const configPath = join(dir, 'q.conf');
  await writeFile(configPath, 'searchd {\n  max_connections = 2\n  client_timeout = 1s\n  max_packet_size = 64k\n}\n');
  server = await startServer({ command: 'serve', configPath, dataDir: join(dir, 'data'), http: '127.0.0.1:0', mysql: '127.0.0.1:0' },
    (o) => openEngine({ dataDir: o.dataDir }));
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Opens a raw socket; resolves with it once connected. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

/** Everything the server sends until it closes; with the time that took. */
function untilClosed(s: Socket): Promise<{ text: string; ms: number }> {
  const start = Date.now();
  let text = '';
  s.on('data', (c: Buffer) => (text += c.toString('latin1')));
  return new Promise((resolve) => s.once('close', () => resolve({ text, ms: Date.now() - start })));
}

const httpGet = 'GET /sql?mode=raw&query=show%20tables HTTP/1.1\r\nHost: x\r\n\r\n';

describe('max_connections', () => {
  it('refuses a MySQL client over the limit with ERR 1040, open connections keep working', async () => {
    const a = await mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root' });
    const b = await mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root' });
    await expect(mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root' }))
      .rejects.toMatchObject({ errno: 1040, message: 'maxed out, dismissing client' });
    const [rows] = await a.query('SHOW TABLES');
    expect(rows).toEqual([]);
    await b.end();
    await new Promise((r) => setTimeout(r, 50));
    const c = await mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root' });
    await c.query('SHOW TABLES');
    await Promise.all([a.end(), c.end()]);
  });

  it('answers an HTTP client over the limit with 503 and Manticore\'s message, the others are served', async () => {
    const a = await open(server.http.port);
    const b = await open(server.http.port);
    const c = await open(server.http.port);
    const refused = await untilClosed(c);
    expect(refused.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.text.endsWith('{"error":"maxed out, dismissing client"}')).toBe(true);
    const reply = new Promise<string>((resolve) => a.once('data', (d: Buffer) => resolve(d.toString())));
    a.write(httpGet);
    expect(await reply).toMatch(/^HTTP\/1\.1 200 /);
    await Promise.all([a, b].map((s) => { s.destroy(); return new Promise((r) => s.once('close', r)); }));
    await new Promise((r) => setTimeout(r, 50));
  });
});

describe('client_timeout against slow senders', () => {
  // a GET goes to node:http at once; a POST's split head is handed to node:http by the lean server
  it.each([
    ['headers', 'GET /sql HTTP/1.1\r\n'],
    ['POST headers (the lean server hands it to node:http)', 'POST /search HTTP/1.1\r\nHost: x\r\n'],
  ])('cuts an HTTP client whose %s trickle in', async (_name, head) => {
    const s = await open(server.http.port);
    const closed = untilClosed(s);
    s.write(head);
    const drip = setInterval(() => { if (!s.destroyed) s.write('X-A: b\r\n'); }, 200);
    const { ms, text } = await closed;
    clearInterval(drip);
    expect(text).toMatch(/^(HTTP\/1\.1 408 |$)/);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
  });

  it('cuts an HTTP client whose body never completes', async () => {
    const s = await open(server.http.port);
    const closed = untilClosed(s);
    s.write('POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nquery=');
    const { ms } = await closed;
    expect(ms).toBeLessThan(3_000);
  });

  it('cuts a MySQL client whose packet never completes', async () => {
    const s = await open(server.mysql.port);
    const closed = untilClosed(s);
    await new Promise((r) => s.once('data', r)); // the greeting
    s.write(Buffer.from([0x40, 0x00, 0x00, 0x01, 0x00]));
    const drip = setInterval(() => { if (!s.destroyed) s.write(Buffer.from([0])); }, 200);
    const { ms } = await closed;
    clearInterval(drip);
    expect(ms).toBeLessThan(3_000);
  });

  // found by a user pass: a client that took the greeting and never logged in held one of
  // max_connections' slots for sphinxql_timeout (15 min), where a silent HTTP client is cut at once
  it('cuts a MySQL client that never sends its handshake response', async () => {
    const s = await open(server.mysql.port);
    const closed = untilClosed(s);
    const { ms, text } = await closed;
    expect(text.length).toBeGreaterThan(0); // the greeting came
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
  });

  // the login bound ends at the OK: a logged-in client idles up to sphinxql_timeout, not client_timeout
  it('keeps a logged-in MySQL client past the login bound', async () => {
    const c = await mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root' });
    await new Promise((r) => setTimeout(r, 1_500));
    const [rows] = await c.query('SHOW TABLES');
    expect(rows).toEqual([]);
    await c.end();
  });
});

describe('max_packet_size', () => {
  it('answers a larger HTTP body with 413 and a larger MySQL query with an error', async () => {
    const res = await fetch(`http://127.0.0.1:${server.http.port}/sql?mode=raw`, { method: 'POST', body: 'x'.repeat(70_000) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'length out of bounds 70000(65536)' });
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root' });
    await expect(conn.query(`SELECT '${'x'.repeat(70_000)}'`)).rejects.toThrow(/max_packet_size=65536/);
    conn.destroy();
  });
});

describe('requests the HTTP parser refuses (found by fuzzing)', () => {
  it('answers a long query string in the URL instead of dropping the connection', async () => {
    const query = `SELECT 1 ${'/* padding */ '.repeat(3000)}`;
    const res = await fetch(`http://127.0.0.1:${server.http.port}/sql?mode=raw&query=${encodeURIComponent(query)}`);
    expect(res.status).toBe(200);
  });

  it('answers headers over the limit with 431 and a JSON error, malformed framing with 400', async () => {
    const big = await open(server.http.port);
    const closed = untilClosed(big);
    big.write(`GET /sql HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1_100_000)}\r\n\r\n`);
    expect((await closed).text).toMatch(/^HTTP\/1\.1 431 [^]*\{"error":"request headers larger than 1048576 bytes"\}$/);
    const bad = await open(server.http.port);
    const badClosed = untilClosed(bad);
    bad.write('POST /sql HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n');
    expect((await badClosed).text).toMatch(/^HTTP\/1\.1 400 [^]*\{"error":"bad HTTP request"\}$/);
  });

  it('answers malformed framing with 400 after earlier requests on the same connection were answered', async () => {
    // a bad request after good ones (lean /sql, node:http's GET) was closed without an answer
    const bad = 'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: zz\r\n\r\n';
    const good = 'POST /sql?mode=raw HTTP/1.1\r\nHost: x\r\nContent-Length: 14\r\n\r\nquery=SELECT 1';
    for (const first of [good, httpGet, good + httpGet]) {
      const s = await open(server.http.port);
      const closed = untilClosed(s);
      s.write(first + bad);
      const { text } = await closed;
      expect(text.match(/HTTP\/1\.1 200 /g)?.length).toBe(first === good + httpGet ? 2 : 1);
      expect(text).toMatch(/HTTP\/1\.1 400 [^]*\{"error":"bad HTTP request"\}$/);
    }
  });

  it('does not log a client that leaves mid-body as an internal error', async () => {
    const spy = vi.spyOn(console, 'error');
    try {
      for (const path of ['/insert', '/cli', '/bulk']) {
        const s = await open(server.http.port);
        s.on('error', () => undefined);
        s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab`);
        await new Promise((r) => setTimeout(r, 50));
        s.destroy();
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(spy.mock.calls.filter((c) => String(c[0]).startsWith('quarry: http'))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});
