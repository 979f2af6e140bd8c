// max_connections on a listener that takes HTTP and HTTPS on one port: the refused client reads the
// 503 and Manticore's "maxed out" text in its own protocol (found by a user pass: an HTTPS client got
// the plain-text refusal as a broken TLS handshake, curl -k printed no status at all).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../../src/engine/index.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';

let dir: string;
let server: RunningServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-tls-limits-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'),
    '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  const configPath = join(dir, 'q.conf');
  await writeFile(configPath, `searchd {\n  ssl_cert = ${join(dir, 'cert.pem')}\n  ssl_key = ${join(dir, 'key.pem')}\n  max_connections = 1\n}\n`);
  server = await startServer({ command: 'serve', configPath, dataDir: join(dir, 'data'), http: '127.0.0.1:0', mysql: '127.0.0.1:0' },
    (o) => openEngine({ dataDir: o.dataDir }));
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

function get(secure: boolean): Promise<{ status: number; text: string }> {
  const request = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.http.port, path: '/sql?mode=raw&query=show%20tables', rejectUnauthorized: false, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('max_connections with TLS on the HTTP port', () => {
  it('refuses an HTTPS client over TLS and a plain one in plain text, both with the 503', async () => {
    const holder: Socket = await new Promise((resolve, reject) => {
      const s = connect(server.http.port, '127.0.0.1', () => resolve(s));
      s.on('error', reject);
    });
    try {
      await new Promise((r) => setTimeout(r, 50));
      for (const secure of [true, false]) {
        expect(await get(secure), secure ? 'https' : 'http').toEqual({ status: 503, text: '{"error":"maxed out, dismissing client"}' });
      }
    } finally {
      holder.destroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await get(true)).status).toBe(200);
  });
});
