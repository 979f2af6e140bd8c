import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startServer } from '../../../src/server/server.js';
import { EngineDouble } from '../http/engine-double.js';

// `npm start` beside a searchd or another quarry on 9308/9306 said only
// "quarry: listen EADDRINUSE: address already in use 127.0.0.1:9308": not which listener, nor the way out.
let dir: string;
let busy: Server;
let busyPort: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-busy-'));
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  busyPort = (busy.address() as AddressInfo).port;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await new Promise((r) => busy.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('a listener port another process holds', () => {
  it.each([
    ['http', 'HTTP'],
    ['mysql', 'MySQL'],
    ['agent', 'binary API'],
  ] as const)('--%s: searchd\'s bind() failed text, the listener and the flag that moves it', async (flag, what) => {
    let closed = false;
    const engine = new EngineDouble({});
    const close = engine.close.bind(engine);
    engine.close = async () => { closed = true; await close(); };
    const ports = { http: '127.0.0.1:0', mysql: '127.0.0.1:0', [flag]: `127.0.0.1:${busyPort}` };
    const started = startServer({ command: 'serve', dataDir: join(dir, 'data'), ...ports }, async () => engine);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(started).rejects.toThrow(
      `bind() failed on 127.0.0.1:${busyPort}: address already in use (the ${what} listener: stop what holds the port, or give --${flag} HOST:PORT; port 0 picks a free one)`);
    expect(closed).toBe(true);
    // said once, by the caller: the MySQL listener's runtime error handler logged Node's text before it too
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([]);
  });
});
