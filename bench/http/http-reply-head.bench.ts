// bench/http/http-reply-head.bench.ts: what the highlight bench's node:http client (http-client.ts postOk: a one-socket
// keep-alive agent, the body read as UTF-8 text and tested for an error) spends per request on the shape of the
// reply's head. A child process answers each request's read with fixed bytes, one write, after busy-waiting
// `--think-us` (the server's time per request, so the client sleeps and wakes as against a real server); one
// listener per head shape: the lean server's (src/http/lean/reply-bytes.ts: Content-Type, Content-Length, Date,
// Connection: keep-alive, Keep-Alive: timeout=5), without Keep-Alive (no per-reply socket timeout in the agent),
// without Connection either, and Content-Type + Content-Length alone. The shapes alternate block by block (order
// reversed every other round); the client's own CPU (user + system, every thread) per request, median of the rounds.
// Measured (session 19, load 15-17, 2 cores, 270 us think time): first quartiles 30-36 us a request whatever the
// head with a 0.4 kB body, 34-37 with 3.6 kB (medians 34-59: the load); without the think time 25-28. The real
// bench's client spends ~110 us a low df request against the quarry server (bench/highlight/highlight-http-ab.bench.ts):
// not the head's shape, so the lean server keeps node:http's head.
// Run: npm run build && node dist/bench/http/http-reply-head.bench.js [--requests 2000] [--rounds 6] [--think-us 270]
// [--body-bytes N] (default: a low df reply of two highlighted hits, 0.4 kB).
import { fork } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { arg } from '../lib/bench-util.js';

const SAMPLE = '{"took":0,"timed_out":false,"hits":{"total":2,"total_relation":"eq","hits":[{"_id":123,"_score":1500,"_source":{"len":245},'
  + '"highlight":{"title":["Zymurgy"],"body":["a <b>zymurgy</b> of the thing that is made of various sorts of stuff and so on"]}},'
  + '{"_id":4567,"_score":1500,"_source":{"len":100},"highlight":{"title":["<b>Zymurgy</b>"],"body":["something about <b>zymurgy</b> here"]}}]}}';

function replyBody(bytes: number): string {
  if (!bytes) return SAMPLE;
  // quotes, backslashes and a two-byte character, as gcide's highlights hold
  return `{"highlight":"${'ab\\\\\\"cd é '.repeat(Math.ceil(bytes / 10))}"}`;
}

function heads(len: number): Record<string, string> {
  const start = `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${len}\r\n`;
  const date = `Date: ${new Date().toUTCString()}\r\n`;
  return {
    'lean server': `${start}${date}Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n`,
    'no Keep-Alive': `${start}${date}Connection: keep-alive\r\n\r\n`,
    'no Connection': `${start}${date}\r\n`,
    'type + length': `${start}\r\n`,
  };
}

/** The child: a listener per head shape; sends {name, port} for each. */
function serve(body: string, thinkUs: number): void {
  for (const [name, head] of Object.entries(heads(Buffer.byteLength(body)))) {
    const reply = Buffer.from(head + body);
    const server = net.createServer((s) => {
      s.setNoDelay(true);
      s.on('data', () => {
        const until = process.hrtime.bigint() + BigInt(thinkUs * 1000);
        while (process.hrtime.bigint() < until) { /* the server's work */ }
        s.write(reply);
      });
    });
    server.listen(0, '127.0.0.1', () => process.send!({ name, port: (server.address() as net.AddressInfo).port }));
  }
}

const REQUEST = '{"table":"gcide","query":{"query_string":"zymurgy"},"limit":20,"_source":["len"],"highlight":{}}';

function post(agent: http.Agent, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/search', method: 'POST', agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(REQUEST);
  });
}

async function main(): Promise<void> {
  const body = replyBody(arg('body-bytes', 0));
  const thinkUs = arg('think-us', 270);
  if (process.argv.includes('--child')) return serve(body, thinkUs);
  const child = fork(fileURLToPath(import.meta.url), [...process.argv.slice(2), '--child']);
  const names = Object.keys(heads(0));
  const ports = new Map<string, number>();
  await new Promise<void>((resolve) => child.on('message', (m: { name: string; port: number }) => {
    ports.set(m.name, m.port);
    if (ports.size === names.length) resolve();
  }));
  const agents = new Map(names.map((n) => [n, new http.Agent({ keepAlive: true, maxSockets: 1 })]));
  const n = arg('requests', 2000);
  const block = async (name: string, count: number) => {
    for (let i = 0; i < count; i++) {
      const text = await post(agents.get(name)!, ports.get(name)!);
      if (/"error":"[^"]|"errors":true|"error":\{/.test(text) || !text.includes('"highlight":')) throw new Error(`${name}: ${text.slice(0, 100)}`);
    }
  };
  try {
    for (const name of names) await block(name, n); // warm: the client's JIT
    const us = new Map(names.map((k): [string, number[]] => [k, []]));
    const rounds = arg('rounds', 6);
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 ? [...names].reverse() : names) {
        const c0 = process.cpuUsage();
        await block(name, n);
        const c = process.cpuUsage(c0);
        us.get(name)!.push((c.user + c.system) / n);
      }
    }
    const rows = names.map((name) => {
      const xs = [...us.get(name)!].sort((a, b) => a - b);
      return { head: name, 'client CPU us/req median': +xs[xs.length >> 1]!.toFixed(1), 'q1': +xs[xs.length >> 2]!.toFixed(1), rounds: xs.map((x) => x.toFixed(0)).join(' ') };
    });
    console.log(JSON.stringify({ 'body bytes': Buffer.byteLength(body), 'think us': thinkUs, rows }, null, 2));
  } finally {
    for (const a of agents.values()) a.destroy();
    child.kill();
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
