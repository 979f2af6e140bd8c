/**
 * The four fuzz targets. Each makes its input from (seed, index) alone, sends it to the server over
 * loopback and returns the violated oracle, if any. A worker keeps its connection between inputs.
 */
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import { httpInput, type HttpInput } from './json-gen.js';
import { checkHttpReply, checkMysqlReply, leak } from './oracles.js';
import { Rng } from './rng.js';
import { sqlStatement, tripleInsert } from './sql-gen.js';
import { WireClient } from './wire-client.js';
import { httpWireInput, mysqlInput, type WireInput } from './wire-gen.js';
import { describeWriteInput, runWrite, writeInput } from './write-target.js';

export const TARGETS = ['sql', 'json', 'mysql-wire', 'http-wire', 'writes'] as const;
export type TargetName = (typeof TARGETS)[number];

export interface Ports {
  http: number;
  mysql: number;
}

/** Bound on one answer: longer is a hang. */
export const ANSWER_MS = 15_000;
/** Quiet time after which a wire input with no complete answer is considered answered (or dropped). */
const QUIET_MS = 150;

export interface Worker {
  /** The violation for input `index`, or undefined. */
  run(index: number): Promise<string | undefined>;
  close(): void;
}

export function rngFor(seed: number, target: TargetName, index: number): Rng {
  return new Rng((seed * 1_000_003 + TARGETS.indexOf(target) * 7_919 + index * 2_654_435_761) >>> 0);
}

/** Input `index` as text, to print with a finding. */
export function describeInput(seed: number, target: TargetName, index: number): string {
  const r = rngFor(seed, target, index);
  if (target === 'sql') return sqlInput(r);
  if (target === 'writes') return describeWriteInput(writeInput(r));
  if (target === 'json') {
    const i = httpInput(r);
    return `${i.method} ${i.path} ${i.body.toString('latin1')}`;
  }
  const w = target === 'mysql-wire' ? mysqlInput(r) : httpWireInput(r);
  return Buffer.concat(w.pieces).toString('hex');
}

let nextTripleId = 0;
function sqlInput(r: Rng): string {
  // one input in ten writes three rows at once: the half-write oracle counts fz_w in threes
  return r.chance(0.1) ? tripleInsert(r, () => (r.chance(0.2) ? r.int(1, 50) : 1000 + (nextTripleId++ % 1_000_000))) : sqlStatement(r);
}

export async function newWorker(target: TargetName, seed: number, ports: Ports): Promise<Worker> {
  if (target === 'sql') return sqlWorker(seed, ports);
  if (target === 'json') return jsonWorker(seed, ports);
  if (target === 'writes') return writesWorker(seed, ports);
  return wireWorker(target, seed, ports);
}

/** What the sql target asks after each input. */
const PROBES = ['SELECT 1', 'SHOW META', 'SELECT 1', 'SHOW WARNINGS'];

/**
 * A worker on one logged-in MySQL connection, logged in again after a failure: `step` runs input `index`
 * on it; `failure` names what a thrown error was (a hang past ANSWER_MS, a client error).
 */
function sessionWorker(ports: Ports, step: (client: WireClient, index: number, deadline: number) => Promise<string | undefined>, failure: (e: unknown) => string): Worker {
  let client: WireClient | undefined;
  return {
    async run(index) {
      const deadline = Date.now() + ANSWER_MS;
      if (!client || client.closed) client = await WireClient.login(ports.mysql, deadline);
      try {
        return await step(client, index, deadline);
      } catch (e) {
        client.close();
        client = undefined;
        return failure(e);
      }
    },
    close: () => client?.close(),
  };
}

const HANG = `hang: no answer within ${ANSWER_MS} ms`;

async function sqlWorker(seed: number, ports: Ports): Promise<Worker> {
  return sessionWorker(ports, async (client, index, deadline) => {
    const sql = sqlInput(rngFor(seed, 'sql', index));
    client.write(Buffer.concat([Buffer.from([0x03]), Buffer.from(sql)]), 0);
    const reply = await client.response(deadline);
    const bad = checkMysqlReply(reply);
    if (bad || reply.closed) return bad;
    // the connection answers a trivial query after every input (a statement must not leave it stuck),
    // and the session's last meta and warnings after any statement (result sets, never an error)
    const probeSql = PROBES[index % PROBES.length]!;
    client.write(Buffer.from(`\x03${probeSql}`), 0);
    const probe = await client.response(deadline);
    if (probe.closed || probe.packets[0]?.[0] === 0xff) return `${probeSql} after the input: ${probe.closed ? 'connection closed' : probe.packets[0]!.subarray(9).toString()}`;
    const shape = checkMysqlReply(probe);
    return shape ? `${probeSql} after the input: ${shape}` : undefined;
  }, (e) => ((e as Error).message === 'hang' ? HANG : String(e)));
}

/** The 'writes' target (write-target.ts): one connection, a state check around every refused write. */
async function writesWorker(seed: number, ports: Ports): Promise<Worker> {
  return sessionWorker(ports, (client, index, deadline) => runWrite(client, ports.http, writeInput(rngFor(seed, 'writes', index)), deadline), (e) => {
    const m = (e as Error).message;
    return m === 'hang' || /timeout|aborted/i.test(m) ? HANG : `client error: ${m}`;
  });
}

function httpCall(port: number, input: HttpInput, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-length': String(input.body.length) };
    if (input.contentType) headers['content-type'] = input.contentType;
    const req = request({ host: '127.0.0.1', port, path: input.path, method: input.method, headers, agent, timeout: ANSWER_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(`HTTP/1.1 ${res.statusCode} x\r\ncontent-type: ${res.headers['content-type'] ?? ''}\r\n\r\n${Buffer.concat(chunks).toString('utf8')}`));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('hang')));
    req.on('error', reject);
    req.end(input.body);
  });
}

async function jsonWorker(seed: number, ports: Ports): Promise<Worker> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    async run(index) {
      const input = httpInput(rngFor(seed, 'json', index));
      try {
        return checkHttpReply(await httpCall(ports.http, input, agent), /^\/cli(\?|$)/.test(input.path));
      } catch (e) {
        const m = (e as Error).message;
        return m === 'hang' ? HANG : `transport error: ${m}`;
      }
    },
    close: () => agent.destroy(),
  };
}

/** Sends raw bytes (slowly when in pieces), collects what comes back until close or quiet, checks it. */
async function wireWorker(target: 'mysql-wire' | 'http-wire', seed: number, ports: Ports): Promise<Worker> {
  return {
    async run(index) {
      const r = rngFor(seed, target, index);
      const input: WireInput = target === 'mysql-wire' ? mysqlInput(r) : httpWireInput(r);
      const deadline = Date.now() + ANSWER_MS;
      const socket = target === 'mysql-wire'
        ? (input.login ? await WireClient.login(ports.mysql, deadline) : await WireClient.open(ports.mysql)).socket
        : await new Promise<import('node:net').Socket>((resolve, reject) => {
          const s = connect(ports.http, '127.0.0.1', () => resolve(s));
          s.once('error', reject);
        });
      const got: Buffer[] = [];
      socket.removeAllListeners('data');
      socket.on('error', () => undefined);
      const done = new Promise<void>((resolve) => {
        let quiet: NodeJS.Timeout | undefined;
        const arm = () => { clearTimeout(quiet); quiet = setTimeout(resolve, QUIET_MS); };
        socket.on('data', (c: Buffer) => { got.push(c); arm(); });
        socket.once('close', () => { clearTimeout(quiet); resolve(); });
        arm();
      });
      for (const piece of input.pieces) {
        if (socket.destroyed) break;
        socket.write(piece);
        if (input.pieces.length > 1) await new Promise((res) => setTimeout(res, 5));
      }
      await done;
      socket.destroy();
      let answer = Buffer.concat(got);
      // the greeting (random scramble bytes) is not an answer to the input
      if (target === 'mysql-wire' && !input.login && answer.length >= 4) answer = answer.subarray(4 + answer.readUIntLE(0, 3));
      if (target === 'http-wire') return checkHttpReply(answer.toString('utf8'), /^[A-Z]+ \/cli[ ?]/.test(Buffer.concat(input.pieces).toString('latin1')));
      // MySQL: every ERR in the answer carries a message without internals (a greeting may precede them)
      return leak(answer.toString('utf8'));
    },
    close: () => undefined,
  };
}
