// The HTTP listener (src/server/http-listener.ts) answers requests without a Host header, as searchd
// does: node:http refused HTTP/1.1 ones with a bare 400 and the web layer could not build their URL.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../../src/engine/index.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';

let dir: string;
let server: RunningServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-http-listener-'));
  server = await startServer({ command: 'serve', dataDir: join(dir, 'data'), http: '127.0.0.1:0', mysql: '127.0.0.1:0' },
    (o) => openEngine({ dataDir: o.dataDir }));
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Sends `request` on a new connection; resolves with everything answered until the server closes. */
function exchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const s = connect(server.http.port, '127.0.0.1', () => s.write(request));
    s.on('data', (c: Buffer) => (text += c.toString('utf8')));
    s.on('error', reject);
    s.on('close', () => resolve(text));
  });
}

describe('requests without a Host header', () => {
  const close = 'Connection: close\r\n';
  it.each([
    ['GET /sql (the web layer)', `GET /sql?mode=raw&query=SELECT%201 HTTP/1.1\r\n${close}\r\n`, /"data":\[\n?\{"1":1\}\n?\]/],
    ['POST /sql (node:http fast path)', `POST /sql?mode=raw HTTP/1.1\r\n${close}Content-Length: 14\r\n\r\nquery=SELECT 1`, /"data":\[\n?\{"1":1\}\n?\]/],
    ['chunked POST /sql', `POST /sql?mode=raw HTTP/1.1\r\n${close}Transfer-Encoding: chunked\r\n\r\ne\r\nquery=SELECT 1\r\n0\r\n\r\n`, /"data":\[\n?\{"1":1\}\n?\]/],
    ['GET /cli', `GET /cli?SELECT%201 HTTP/1.1\r\n${close}\r\n`, /\| 1 \|/],
    ['GET / (the console)', `GET / HTTP/1.1\r\n${close}\r\n`, /quarry console/],
    ['HTTP/1.0 GET /sql', 'GET /sql?mode=raw&query=SELECT%201 HTTP/1.0\r\n\r\n', /"data":\[\n?\{"1":1\}\n?\]/],
  ])('%s is answered', async (_, request, body) => {
    const text = await exchange(request);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(body);
  });
});
