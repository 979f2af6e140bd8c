// bench/insert/client-turnaround.bench.ts: what each HTTP client of the harness (http-client.ts), and mysql2 for
// reference (the client of the MySQL rows, quarry's and Sphinx's), costs a group-committed single-row INSERT,
// with no quarry in the way. A stub server (this file with --stub, a child process) holds the requests of 16
// keep-alive connections until each has one (or 5 ms passed), then answers them all at once, as a commit round
// does, with the reply of an INSERT (over /sql?mode=raw; over MySQL an OK packet by mysql2's own server). Per client kind,
// alternated round by round: requests/s, this process's CPU a request (the clients', on the cores a server
// would use) and the mean time from a round's replies to the last connection's next request (the turnaround
// a group-committing server waits for before its next round).
// Run: npm run build && node dist/bench/insert/client-turnaround.bench.js [--requests 4000] [--rounds 4]
// Session 27 (load 13-15, 4 alternated rounds, the last two warm): mysql2 37-44 us / 0.82-1.10 ms, undici 7.3
// Pool.request 39-47 us / 0.90-0.96 ms, LeanHttpClient 20-22 us / 0.51 ms, node:http 97 us / 1.94-1.99 ms. So the
// insert bench's HTTP row (undici) is driven by a client as costly as the MySQL rows' (mysql2, Sphinx's too);
// a lean client would hand quarry's HTTP row a client cheaper than Sphinx's row has.
import { fork } from 'node:child_process';
import { createConnection } from 'mysql2/promise';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { arg } from '../lib/bench-util.js';
import { clientAgent, type HttpClientName } from '../lib/http-client.js';

const CLIENTS = 16;
const REPLY_BODY = '[{"total":1,"error":"","warning":"","affected_rows":1}]';

interface Stats { gapMs: number }
/** A MySQL packet: 3-byte length, sequence id, payload. */
function mysqlPacket(seq: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUIntLE(payload.length, 0, 3);
  head[3] = seq;
  return Buffer.concat([head, payload]);
}
/** Protocol 10 handshake: protocol 4.1, secure connection, plugin auth (mysql_native_password), status autocommit. */
const HANDSHAKE = Buffer.concat([
  Buffer.from([10]), Buffer.from('5.7.0-stub\0'), Buffer.from([1, 0, 0, 0]), Buffer.from('12345678\0'),
  Buffer.from([0x01, 0xa2, 0x21, 0x02, 0x00, 0x08, 0x00, 21]), Buffer.alloc(10), Buffer.from('123456789012\0'),
  Buffer.from('mysql_native_password\0'),
]);
/** OK packet: 1 affected row, no insert id, status autocommit, no warnings. */
const OK = Buffer.from([0, 1, 0, 2, 0, 0, 0]);
/** One client of a kind: sends one INSERT, resolves on its reply. */
interface Poster { post(): Promise<unknown>; close(): void }
type Kind = HttpClientName | 'mysql2';

/** The stub: one round of replies once every connection has a request waiting. */
function stubServer(): void {
  const reply = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${REPLY_BODY.length}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${REPLY_BODY}`);
  let pending: Array<() => void> = [];
  let conns = 0;
  let repliedAt = 0;
  let gaps = 0;
  let gapSum = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const round = pending;
    pending = [];
    for (const answer of round) answer();
    repliedAt = performance.now();
  };
  const server = net.createServer((s) => {
    s.setNoDelay(true);
    conns++;
    let buf: Buffer = Buffer.alloc(0);
    s.on('data', (c: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, c]) : c;
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const m = /content-length: *(\d+)/i.exec(buf.toString('latin1', 0, end));
        const total = end + 4 + (m ? Number(m[1]) : 0);
        if (buf.length < total) return;
        buf = buf.subarray(total);
        arrived(() => s.write(reply));
      }
    });
    s.on('close', () => { conns--; });
  });
  const arrived = (answer: () => void) => {
    pending.push(answer);
    if (pending.length >= conns) {
      if (repliedAt) { gapSum += performance.now() - repliedAt; gaps++; }
      flush();
    } else timer ??= setTimeout(flush, 5);
  };
  // a MySQL server of the few packets mysql2 needs: its handshake, OK to the login, OK to every COM_QUERY
  const mysql = net.createServer((s) => {
    s.setNoDelay(true);
    conns++;
    let loggedIn = false;
    let buf: Buffer = Buffer.alloc(0);
    s.write(mysqlPacket(0, HANDSHAKE));
    s.on('data', (c: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, c]) : c;
      while (buf.length >= 4 && buf.length >= 4 + buf.readUIntLE(0, 3)) {
        buf = buf.subarray(4 + buf.readUIntLE(0, 3));
        if (!loggedIn) {
          loggedIn = true;
          s.write(mysqlPacket(2, OK));
        } else arrived(() => s.write(mysqlPacket(1, OK)));
      }
    });
    s.on('close', () => { conns--; });
  });
  server.listen(0, '127.0.0.1', () => mysql.listen(0, '127.0.0.1', () => process.send!({
    port: (server.address() as net.AddressInfo).port,
    mysqlPort: (mysql.address() as net.AddressInfo).port,
  })));
  process.on('message', () => {
    process.send!({ gapMs: gaps ? gapSum / gaps : 0 } satisfies Stats);
    gaps = 0;
    gapSum = 0;
    repliedAt = 0;
  });
}

async function main(): Promise<void> {
  const requests = arg('requests', 4000);
  const rounds = arg('rounds', 4);
  const stub = fork(fileURLToPath(import.meta.url), ['--stub']);
  const { port, mysqlPort } = await new Promise<{ port: number; mysqlPort: number }>((r) => stub.once('message', (m) => r(m as { port: number; mysqlPort: number })));
  const stats = () => new Promise<Stats>((r) => { stub.once('message', (m) => r(m as Stats)); stub.send('stats'); });
  const body = `INSERT INTO gcide (id, title, body, len) VALUES (1,'title','${'x'.repeat(400)}',400)`;
  const open = async (kind: Kind): Promise<Poster> => {
    if (kind === 'mysql2') {
      const c = await createConnection({ host: '127.0.0.1', port: mysqlPort });
      return { post: () => c.query(body), close: () => c.destroy() };
    }
    const a = clientAgent(kind);
    return { post: () => a.post(port, '/sql?mode=raw', body), close: () => a.destroy() };
  };
  const out = new Map<Kind, string[]>();
  for (let r = 0; r < rounds; r++) {
    for (const kind of ['mysql2', 'lean', 'undici', 'node'] as const) {
      const clients = await Promise.all(Array.from({ length: CLIENTS }, () => open(kind)));
      await Promise.all(clients.map((c) => c.post())); // connected, warm
      await stats();
      let next = 0;
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      await Promise.all(clients.map(async (c) => { while (next++ < requests) await c.post(); }));
      const s = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const { gapMs } = await stats();
      for (const c of clients) c.close();
      const row = `${Math.round(requests / s)}/s, ${((cpu.user + cpu.system) / requests).toFixed(1)} us, ${gapMs.toFixed(3)} ms`;
      out.set(kind, [...(out.get(kind) ?? []), row]);
    }
  }
  console.log(`${CLIENTS} connections, ${requests} requests a run: requests/s, client CPU a request, round replies to the last next request`);
  for (const [kind, rows] of out) console.log(`${kind.padEnd(7)} ${rows.join(' | ')}`);
  stub.kill();
}

if (process.argv.includes('--stub')) stubServer();
else await main();
