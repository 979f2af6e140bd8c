import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, rows } from '../../../src/engine/result.js';
import type { ServerEngineOptions } from '../../../src/server/engine-loader.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { EngineDouble } from '../http/engine-double.js';

let dir: string;
let server: RunningServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-server-'));
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function post(port: number, path: string, body: string, agent?: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('startServer (with an engine double)', () => {
  it('listens on the port asked for, 0 meaning a free one, and reports it', async () => {
    const engine = new EngineDouble({ 'truncate table t': [ok(0)] });
    let opened: ServerEngineOptions | undefined;
    server = await startServer({ command: 'serve', dataDir: join(dir, 'data'), http: '127.0.0.1:0', mysql: '127.0.0.1:0' }, async (o) => {
      opened = o;
      return engine;
    });
    // onServerSetting / serverSetting: SET GLOBAL and SHOW VARIABLES of the server's own settings (query_log_format, ...)
    const { onServerSetting, serverSetting, ...rest } = opened ?? {};
    expect(rest).toEqual({ dataDir: join(dir, 'data'), configPath: undefined, configTables: undefined });
    expect([typeof onServerSetting, typeof serverSetting]).toEqual(['function', 'function']);
    expect(server.http.port).toBeGreaterThan(0);
    expect(server.readyLine).toMatch(new RegExp(`^quarry listening http=127\\.0\\.0\\.1:${server.http.port} `));
    expect(server.mysql.port).toBeGreaterThan(0);
    expect(server.readyLine).toContain(` mysql=127.0.0.1:${server.mysql.port} `);
    const res = await post(server.http.port, '/cli_json', 'truncate table t');
    expect(res).toEqual({ status: 200, text: '[{"total":0,"error":"","warning":""}]' });
  });

  it('keeps one session per connection, a new one per new connection', async () => {
    const engine = new EngineDouble({ 'select 1': [rows([{ name: '1', kind: 'bigint' }], [[1n]])] });
    server = await startServer({ command: 'serve', dataDir: dir, http: '127.0.0.1:0', mysql: '127.0.0.1:0' }, async () => engine);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await post(server.http.port, '/cli_json', 'select 1', agent);
    await post(server.http.port, '/cli_json', 'select 1', agent);
    agent.destroy();
    await post(server.http.port, '/cli_json', 'select 1', new Agent({ keepAlive: false }));
    const [a, b, c] = engine.calls.map((call) => call.session);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('reads data_dir from a config file, and stop() closes listener then engine', async () => {
    const configPath = join(dir, 'q.conf');
    await writeFile(
      configPath,
      `searchd {\n  listen = 127.0.0.1:9:http\n  data_dir = ${join(dir, 'd2')}\n}\n` +
        'table products {\n  type = rt\n  rt_field = title\n  rt_attr_uint = gid\n  morphology = stem_en\n}\n',
    );
    const engine = new EngineDouble({});
    let closed = 0;
    engine.close = async () => {
      closed++;
    };
    let opened: ServerEngineOptions | undefined;
    server = await startServer({ command: 'serve', configPath, http: '127.0.0.1:0', mysql: '127.0.0.1:0' }, async (o) => {
      opened = o;
      return engine;
    });
    expect(server.options.dataDir).toBe(join(dir, 'd2'));
    expect(opened?.configPath).toBe(configPath);
    expect(opened?.configTables?.get('products')?.schema.settings).toEqual({ morphology: 'stem_en' });
    const port = server.http.port;
    await server.stop();
    await server.stop();
    expect(closed).toBe(1);
    await expect(post(port, '/cli_json', 'x')).rejects.toThrow(/ECONNREFUSED/);
    server = undefined;
  });

  it('stops while a client holds an idle keep-alive connection', async () => {
    const engine = new EngineDouble({ 'select 1': [rows([{ name: '1', kind: 'bigint' }], [[1n]])] });
    server = await startServer({ command: 'serve', dataDir: dir, http: '127.0.0.1:0', mysql: '127.0.0.1:0' }, async () => engine);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await post(server.http.port, '/cli_json', 'select 1', agent);
    const socketClosed = new Promise<void>((res) => {
      const sockets = Object.values(agent.freeSockets).flat();
      expect(sockets).toHaveLength(1);
      sockets[0]!.once('close', () => res());
    });
    await server.stop();
    await socketClosed; // the server ended the idle connection itself
    agent.destroy();
    server = undefined;
  });

  it('closes the engine again when the port is taken', async () => {
    const first = new EngineDouble({});
    server = await startServer({ command: 'serve', dataDir: dir, http: '127.0.0.1:0', mysql: '127.0.0.1:0' }, async () => first);
    const second = new EngineDouble({});
    let closed = false;
    second.close = async () => {
      closed = true;
    };
    const taken = `127.0.0.1:${server.http.port}`;
    await expect(startServer({ command: 'serve', dataDir: dir, http: taken }, async () => second)).rejects.toThrow(/bind\(\) failed on .*: address already in use/);
    expect(closed).toBe(true);
  });
});

describe('listening beyond loopback', () => {
  it('warns for each listener on a non-loopback address without TLS, and not on loopback', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      server = await startServer({ command: 'serve', dataDir: join(dir, 'data'), http: '0.0.0.0:0', mysql: '127.0.0.1:0' }, async () => new EngineDouble({}));
      const lines = warn.mock.calls.map((c) => String(c[0]));
      expect(lines).toEqual(['quarry: warning: http listens on 0.0.0.0:0 without TLS (set ssl_cert and ssl_key)']);
    } finally {
      warn.mockRestore();
    }
  });
});
