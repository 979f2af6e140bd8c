// bench/http/lean-request.bench.ts: CPU per request of the lean HTTP server's own work (head parse, route
// call, reply encoding and write) for an INSERT's `/sql?mode=raw` request, without the engine or a real
// socket: a fake socket echoes each reply with the next request, the route answers at once with the OK
// reply of an INSERT. What HTTP adds over the MySQL protocol on the protocol thread, in isolation
// (16-client INSERTs cost that thread 150-180 us each, insert-ab.bench.ts). This build against a
// baseline build, alternated. Run: node dist/bench/http/lean-request.bench.js [--baseline DIR] [--rounds 3]
// [--requests 200000] (DIR: a checkout with dist/).
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { arg, argString } from '../lib/bench-util.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const SQL = "INSERT INTO gcide (id, title, body, len) VALUES (20000001,'abandon','To give up wholly; to surrender completely.',42)";
/** The request as node:http's client sends it (bench/side-by-side/side-by-side.bench.ts's `post`). */
const REQUEST = Buffer.from(`POST /sql?mode=raw HTTP/1.1\r\nHost: 127.0.0.1:40123\r\nConnection: keep-alive\r\nContent-Length: ${SQL.length}\r\n\r\n${SQL}`);
const OK_BODY = '[{"total":1,"error":"","warning":""}]';

class FakeSocket extends EventEmitter {
  destroyed = false; writable = true; writableLength = 0; writableNeedDrain = false;
  onWrite: () => void = () => undefined;
  write(_b: Buffer): boolean { queueMicrotask(this.onWrite); return true; }
  setTimeout(): void {}
  pause(): void {}
  resume(): void {}
  destroy(): void { this.destroyed = true; }
  destroySoon(): void {}
  end(): void {}
}

/** Microseconds of CPU per request over `n` sequential requests on one connection of `dir`'s build. */
async function usPerRequest(dir: string, n: number): Promise<number> {
  const { LeanConnection } = await import(join(dir, 'dist/src/http/lean/lean-connection.js'));
  const route = async () => ({ status: 200, contentType: 'application/json; charset=UTF-8', body: OK_BODY });
  const ctx = {
    routes: (p: string) => (p === '/sql' ? route : undefined), maxBodyBytes: 1 << 20, maxHeadBytes: 16384,
    keepAliveTimeoutMs: () => 65_000, requestTimeoutMs: () => 300_000, closing: () => false,
    onInternalError: (e: unknown) => { throw e; }, onRequest: () => () => undefined,
    handOver: () => { throw new Error('the request was handed to node:http'); }, clientError: () => undefined,
  };
  const socket = new FakeSocket();
  new LeanConnection(socket, ctx);
  let left = n;
  const t0 = process.cpuUsage();
  await new Promise<void>((done) => {
    socket.onWrite = () => { if (--left === 0) done(); else socket.emit('data', REQUEST); };
    socket.emit('data', REQUEST);
  });
  const t = process.cpuUsage(t0);
  return Number(((t.user + t.system) / n).toFixed(3));
}

const baseline = argString('baseline');
const rounds = arg('rounds', 3);
const n = arg('requests', 200_000);
const builds: [string, string][] = [['this', ROOT]];
if (baseline) builds.unshift(['baseline', baseline]);
const rows: Record<string, unknown>[] = [];
for (let r = 0; r < rounds; r++) {
  // the first pass of each build warms its code; the second is the figure
  for (const [build, dir] of builds) { await usPerRequest(dir, n); rows.push({ build, round: r + 1, 'CPU us/request': await usPerRequest(dir, n) }); }
}
console.log(JSON.stringify(rows));
