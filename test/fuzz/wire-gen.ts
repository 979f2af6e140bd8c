/**
 * Raw bytes for the two wire targets: MySQL packets (bad lengths, sequence ids, truncation, every
 * command byte, garbage handshakes) and HTTP/1.1 framing (bad chunking, absurd headers, pipelining).
 */
import { text, urlEncode, type Rng } from './rng.js';
import { sqlStatement } from './sql-gen.js';

export interface WireInput {
  /** Log in first (a valid HandshakeResponse41), so commands reach the command phase. */
  login: boolean;
  /** Written in this many pieces, with short pauses: a slow sender. */
  pieces: Buffer[];
}

function packet(payload: Buffer, seq: number, len = payload.length): Buffer {
  const head = Buffer.alloc(4);
  head.writeUIntLE(len & 0xffffff, 0, 3);
  head[3] = seq & 0xff;
  return Buffer.concat([head, payload]);
}

function commandPayload(r: Rng): Buffer {
  const cmd = r.chance(0.6) ? r.pick([0x03, 0x16, 0x17, 0x19, 0x1a, 0x18, 0x02, 0x04, 0x0e, 0x09, 0x1b, 0x11]) : r.int(0, 255);
  const rest = r.chance(0.5) ? Buffer.from(sqlStatement(r)) : r.bytes(r.count(40));
  if (cmd === 0x17 && r.chance(0.7)) {
    // COM_STMT_EXECUTE: statement id, flags, iteration count, null bitmap, types, values
    const b = Buffer.alloc(9);
    b.writeUInt32LE(r.int(0, 5), 0);
    b[4] = r.int(0, 3);
    b.writeUInt32LE(r.int(0, 2), 5);
    return Buffer.concat([Buffer.from([cmd]), b, r.bytes(r.count(20))]);
  }
  return Buffer.concat([Buffer.from([cmd]), rest]);
}

function handshake(r: Rng): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(r.chance(0.7) ? 0x200 | 0x8000 | 0x80000 : r.int(0, 0xffffffff) >>> 0, 0);
  b.writeUInt32LE(r.int(0, 0xffffffff) >>> 0, 4);
  return Buffer.concat([b, r.bytes(r.count(30)), Buffer.from(text(r))]);
}

export function mysqlInput(r: Rng): WireInput {
  const login = r.chance(0.8);
  const packets: Buffer[] = [];
  for (let i = r.int(1, 3); i > 0; i--) {
    const payload = login ? commandPayload(r) : handshake(r);
    const seq = r.chance(0.8) ? (login ? 0 : 1) : r.int(0, 255);
    switch (r.int(0, 9)) {
      case 0: packets.push(packet(payload, seq, r.int(0, 0xffffff))); break; // length lies
      case 1: packets.push(packet(payload, seq).subarray(0, r.int(0, payload.length + 3))); break; // truncated
      case 2: packets.push(packet(Buffer.alloc(0), seq)); break; // empty payload
      case 3: packets.push(r.bytes(r.int(1, 64))); break; // not a packet
      default: packets.push(packet(payload, seq));
    }
  }
  return { login, pieces: split(r, Buffer.concat(packets)) };
}

/** Cuts bytes into a few pieces (most often one) so some inputs arrive slowly. */
function split(r: Rng, all: Buffer): Buffer[] {
  if (!r.chance(0.1) || all.length < 2) return [all];
  const cuts = Array.from({ length: r.int(1, 4) }, () => r.int(1, all.length - 1)).sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const c of cuts) {
    out.push(all.subarray(at, c));
    at = c;
  }
  out.push(all.subarray(at));
  return out;
}

function chunked(r: Rng, body: string): string {
  let out = '';
  for (let at = 0; at < body.length;) {
    const n = r.int(1, 20);
    const piece = body.slice(at, at + n);
    at += n;
    const size = r.chance(0.9) ? Buffer.byteLength(piece).toString(16) : r.pick(['zz', '-1', 'ffffffffffffffff', '', '1;ext=1', '0x10']);
    out += `${size}\r\n${piece}${r.chance(0.95) ? '\r\n' : ''}`;
  }
  return out + (r.chance(0.9) ? '0\r\n\r\n' : '');
}

export function httpWireInput(r: Rng): WireInput {
  const body = r.chance(0.5) ? 'query=' + urlEncode(sqlStatement(r)) : '{"table":"fz","query":{"match_all":{}}}';
  const path = r.pick(['/sql', '/search', '/cli', '/insert', '/bulk', '/nosuch', '*', '/sql?' + 'a=1&'.repeat(r.int(0, 3000)), '/%zz', '/\u00ff']);
  const method = r.chance(0.9) ? 'POST' : r.pick(['GET', 'OPTIONS', 'TRACE', 'CONNECT', 'X'.repeat(r.int(1, 300)), '']);
  const version = r.chance(0.9) ? 'HTTP/1.1' : r.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/9', 'FOO', '']);
  const headers: string[] = ['Host: x'];
  const useChunked = r.chance(0.3);
  if (useChunked) headers.push('Transfer-Encoding: chunked');
  if (!useChunked || r.chance(0.1)) headers.push(`Content-Length: ${r.chance(0.85) ? Buffer.byteLength(body) : r.pick(['-1', '99999999999999999999', 'abc', '0', String(Buffer.byteLength(body) + 10), '1, 2'])}`);
  for (let i = r.count(4); i > 0; i--) {
    headers.push(r.pick([
      `X-Long: ${'a'.repeat(r.int(1000, 100_000))}`, 'Content-Type: application/json', 'Connection: close', 'Expect: 100-continue',
      'Transfer-Encoding: gzip, chunked', 'Bad Header', ': empty', 'X-Nul: \0', 'Content-Length: 5', `X-${i}: ${text(r)}`,
    ]));
  }
  if (r.chance(0.02)) for (let i = 0; i < 3000; i++) headers.push(`X-H${i}: v`);
  const raw = `${method} ${path} ${version}\r\n${headers.join('\r\n')}\r\n\r\n${useChunked ? chunked(r, body) : body}`;
  const bytes = Buffer.from(raw, r.chance(0.05) ? 'latin1' : 'utf8');
  return { login: false, pieces: split(r, r.chance(0.1) ? bytes.subarray(0, r.int(0, bytes.length)) : bytes) };
}
