// The benches' keep-alive HTTP clients (bench/lib/http-client.ts: clientAgent's undici, node:http and lean, and
// LeanHttpClient) against a node:http server: what they send, replies read one after another on one
// connection (chunked, multi-byte) and a close without a reply.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAgent, LeanHttpClient, postOk, type HttpClientName } from '../../../../bench/lib/http-client.js';

/** A node:http server on a free port: reads each body whole, hands it to `onBody`, closes the
 * connection for the body 'close' and otherwise answers with what `reply` gives. */
async function echoServer(onBody: (req: http.IncomingMessage, body: string) => void, reply: (body: string) => { status: number; text: string }): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => {
      onBody(req, body);
      if (body === 'close') { req.socket.destroy(); return; }
      const { status, text } = reply(body);
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('LeanHttpClient', () => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    ({ server, port } = await echoServer(
      (req, body) => seen.push({ method: req.method, url: req.url, headers: req.headers, body }),
      (body) => ({ status: body === 'missing' ? 404 : 200, text: body === 'big' ? 'ä'.repeat(100_000) : `echo ${body}` }),
    ));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends what node:http sends and reads replies one after another on one connection', async () => {
    const c = new LeanHttpClient(port);
    expect(await c.post('/sql?mode=raw', 'SELECT 1')).toEqual({ status: 200, body: 'echo SELECT 1' });
    expect(await c.post('/x', 'missing', 'application/json')).toEqual({ status: 404, body: 'echo missing' });
    const last = seen.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.url).toBe('/x');
    expect(last.headers['content-type']).toBe('application/json');
    expect(last.headers.connection).toBe('keep-alive');
    expect(seen.at(-2)!.url).toBe('/sql?mode=raw');
    c.close();
  });

  it('reads a reply spread over many chunks, multi-byte text intact', async () => {
    const c = new LeanHttpClient(port);
    const r = await c.post('/', 'big');
    expect(r.body).toBe('ä'.repeat(100_000));
    expect((await c.post('/', 'ü')).body).toBe('echo ü');
    c.close();
  });

  it('rejects when the server closes without a reply', async () => {
    const c = new LeanHttpClient(port);
    await expect(c.post('/', 'close')).rejects.toThrow(/closed/);
  });
});

describe.each<HttpClientName>(['undici', 'node', 'lean'])('clientAgent(%s)', (kind) => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ url?: string; type?: string; body: string; socket: object }> = [];

  beforeAll(async () => {
    ({ server, port } = await echoServer(
      (req, body) => seen.push({ url: req.url, type: req.headers['content-type'], body, socket: req.socket }),
      (body) => ({ status: 200, text: body === 'big' ? 'ä'.repeat(100_000) : body === 'fail' ? '{"error":"bad"}' : `echo ${body}` }),
    ));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('posts bodies and reads replies one after another on one keep-alive connection', async () => {
    const a = clientAgent(kind);
    expect(a.client).toBe(kind);
    seen.length = 0;
    expect(await a.post(port, '/sql?mode=raw', 'SELECT 1')).toEqual({ status: 200, body: 'echo SELECT 1' });
    expect(await postOk(a, port, '/bulk', 'x\n', 'application/x-ndjson')).toBe('echo x\n');
    expect((await a.post(port, '/', 'big')).body).toBe('ä'.repeat(100_000));
    expect(seen.map((r) => [r.url, r.type])).toEqual([['/sql?mode=raw', undefined], ['/bulk', 'application/x-ndjson'], ['/', undefined]]);
    expect(new Set(seen.map((r) => r.socket)).size).toBe(1);
    a.destroy();
  });

  it('connect() opens the connection by one SHOW VERSION, and the posts after it use that connection', async () => {
    const a = clientAgent(kind);
    seen.length = 0;
    await a.connect(port);
    expect(seen.map((r) => [r.url, r.body])).toEqual([['/sql?mode=raw', 'SHOW VERSION']]);
    expect(await a.post(port, '/sql?mode=raw', 'INSERT')).toEqual({ status: 200, body: 'echo INSERT' });
    expect(new Set(seen.map((r) => r.socket)).size).toBe(1);
    a.destroy();
  });

  it('postOk rejects an error reply; a close without a reply rejects', async () => {
    const a = clientAgent(kind);
    await expect(postOk(a, port, '/insert', 'fail')).rejects.toThrow(/bad/);
    await expect(a.post(port, '/', 'close')).rejects.toThrow();
    a.destroy();
  });
});
