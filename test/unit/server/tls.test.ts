// TLS on both listeners from ssl_cert/ssl_key in the config, with a self-signed certificate made here.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../../src/engine/index.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';

const HAS_MARIADB = (() => {
  try {
    execFileSync('mariadb', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dir: string;
let server: RunningServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'),
    '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  const configPath = join(dir, 'q.conf');
  await writeFile(configPath, `searchd {\n  ssl_cert = ${join(dir, 'cert.pem')}\n  ssl_key = ${join(dir, 'key.pem')}\n}\n`);
  server = await startServer({ command: 'serve', configPath, dataDir: join(dir, 'data'), http: '127.0.0.1:0', mysql: '127.0.0.1:0' },
    (o) => openEngine({ dataDir: o.dataDir }));
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

function post(secure: boolean, path: string, body: string): Promise<{ status: number; text: string; encrypted: boolean }> {
  const request = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.http.port, path, method: 'POST', rejectUnauthorized: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      const encrypted = 'encrypted' in res.socket;
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, encrypted }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('TLS from ssl_cert and ssl_key', () => {
  it('serves HTTPS and plain HTTP on the same port', async () => {
    const tls = await post(true, '/sql?mode=raw', 'show tables');
    expect(tls).toMatchObject({ status: 200, encrypted: true });
    const plain = await post(false, '/sql?mode=raw', 'show tables');
    expect(plain).toMatchObject({ status: 200, encrypted: false });
    expect(tls.text).toBe(plain.text);
  });

  it('serves a TLS client whose hello comes late (the sniffer waits for the first byte, not for a quick one)', async () => {
    const raw = connect(server.http.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => { raw.once('connect', resolve); raw.once('error', reject); });
    await new Promise((r) => setTimeout(r, 300)); // connected and silent, as a slow client before its hello
    const reply = await new Promise<string>((resolve, reject) => {
      const t = tlsConnect({ socket: raw, rejectUnauthorized: false }, () => {
        t.end('POST /sql?mode=raw HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nConnection: close\r\n\r\nshow tables');
      });
      let text = '';
      t.setEncoding('utf8');
      t.on('data', (c: string) => (text += c));
      t.on('end', () => resolve(text));
      t.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses an HTTPS client that does not trust the self-signed certificate', async () => {
    const bad = new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: server.http.port, path: '/', method: 'GET' }, resolve);
      req.on('error', reject);
      req.end();
    });
    await expect(bad).rejects.toThrow(/self[- ]signed/);
  });

  it('offers SSL in the MySQL handshake; mysql2 with ssl connects and queries', async () => {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root', ssl: { rejectUnauthorized: false } });
    await conn.query('CREATE TABLE tls_t (title text)');
    await conn.query("INSERT INTO tls_t (id, title) VALUES (1, 'over tls')");
    const [rows] = await conn.query("SELECT id, title FROM tls_t WHERE MATCH('tls')");
    expect(rows).toEqual([{ id: 1, title: 'over tls' }]);
    // the stream under the protocol is a TLS socket
    expect((conn as unknown as { connection: { stream: { encrypted?: boolean } } }).connection.stream.encrypted).toBe(true);
    await conn.end();
    const plain = await mysql.createConnection({ host: '127.0.0.1', port: server.mysql.port, user: 'root' });
    const [again] = await plain.query('SELECT id FROM tls_t');
    expect(again).toEqual([{ id: 1 }]);
    await plain.end();
  });

  it.skipIf(!HAS_MARIADB)('the mariadb CLI connects with --ssl', async () => {
    const out = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const p = spawn('mariadb', ['-h127.0.0.1', `-P${server.mysql.port}`, '-uroot', '--ssl', '--skip-ssl-verify-server-cert',
        '--batch', '-e', 'SELECT 1 AS one; \\s']);
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      p.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('one\n1\n');
    expect(out.stdout).toMatch(/SSL:\s+Cipher in use is /);
  });
});

describe('max_connections with TLS on the HTTP port', () => {
  it('frees the slot of a client that closed before sending a byte at once, not at the first-byte timeout', async () => {
    const d = await mkdtemp(join(tmpdir(), 'quarry-tls-max-'));
    const conf = join(d, 'q.conf');
    await writeFile(conf, `searchd {\n  ssl_cert = ${join(dir, 'cert.pem')}\n  ssl_key = ${join(dir, 'key.pem')}\n  max_connections = 2\n}\n`);
    const s = await startServer({ command: 'serve', configPath: conf, dataDir: join(d, 'data'), http: '127.0.0.1:0', mysql: '127.0.0.1:0' },
      (o) => openEngine({ dataDir: o.dataDir }));
    try {
      // two clients connect and leave without a byte (a port scan, a health check that only connects)
      for (let i = 0; i < 2; i++) {
        await new Promise<void>((resolve, reject) => {
          const c = connect(s.http.port, '127.0.0.1', () => { c.end(); resolve(); });
          c.on('error', reject);
        });
      }
      await new Promise((r) => setTimeout(r, 300));
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: s.http.port, path: '/sql?mode=raw', method: 'POST' }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
        req.on('error', reject);
        req.end('show tables');
      });
      expect(status).toBe(200); // was 503 'maxed out' until the 30 s first-byte timeout
    } finally {
      await s.stop();
      await rm(d, { recursive: true, force: true });
    }
  });
});
