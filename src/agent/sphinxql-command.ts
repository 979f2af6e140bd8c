/**
 * SPHINXQL (command 8): a master forwards a SphinxQL write (Sphinx 2.2's UPDATE over a distributed
 * index) as text; the reply body is the MySQL OK or ERR packet the statement would get, which the
 * master reads for the affected-row count.
 */
import type { Result } from '../engine/result.js';
import { ApiReader, Cmd, ServedVersion, Status, errorReply, reply } from './wire.js';

function lenenc(n: number): Buffer {
  if (n < 251) return Buffer.from([n]);
  const b = Buffer.alloc(9);
  b[0] = 0xfe;
  b.writeBigUInt64LE(BigInt(n), 1);
  return b;
}

/** A MySQL packet (3-byte length, sequence 1) around `payload`. */
function packet(payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUIntLE(payload.length, 0, 3);
  head[3] = 1;
  return Buffer.concat([head, payload]);
}

export function readSphinxqlText(ver: number, body: Buffer): string | Buffer {
  const r = new ApiReader(body);
  const sql = r.str();
  return r.truncated ? errorReply(ver, 'invalid or truncated request') : sql;
}

export function sphinxqlReply(res: Result): Buffer {
  let payload: Buffer;
  if (res.kind === 'error') {
    const msg = Buffer.from(res.message, 'utf8');
    const head = Buffer.from([0xff, 0x28, 0x04, 0x23, ...Buffer.from('42000')]); // errno 1064
    payload = Buffer.concat([head, msg]);
  } else {
    const affected = res.kind === 'ok' ? res.affected : res.rows.length;
    payload = Buffer.concat([Buffer.from([0]), lenenc(affected), lenenc(0), Buffer.from([2, 0, 0, 0])]);
  }
  return reply(Status.OK, ServedVersion[Cmd.SPHINXQL]!, packet(payload));
}
