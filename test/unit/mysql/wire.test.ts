import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from '../../../src/mysql/constants.js';
import { PacketWriter } from '../../../src/mysql/packet-writer.js';
import { command, RawClient } from './raw-client.js';
import { startFixture, type MysqlFixture } from './real-engine.js';

let fx: MysqlFixture;
beforeAll(async () => {
  fx = await startFixture({ maxPacketBytes: 64 * 1024 });
  const session = { autocommit: true, database: 'Manticore' };
  expect(await fx.engine.execute('CREATE TABLE w (title text, n uint)', session)).toEqual([{ kind: 'ok', affected: 0 }]);
  expect(await fx.engine.execute("INSERT INTO w (id, title, n) VALUES (1, 'a', 1), (2, 'b', 2)", session)).toMatchObject([{ kind: 'ok', affected: 2 }]);
});
afterAll(async () => {
  await fx?.stop();
});

const errOf = (p: Buffer) => ({ errno: p.readUInt16LE(1), state: p.toString('latin1', 3, 9), message: p.toString('utf8', 9) });

async function loggedIn(): Promise<RawClient> {
  const c = await RawClient.login(fx.port);
  const ok = await c.read();
  expect(ok).toMatchObject({ seq: 2 });
  expect(ok!.payload[0]).toBe(0x00);
  return c;
}

describe('connection phase', () => {
  it('greets with protocol 10, a version and mysql_native_password', async () => {
    const c = await RawClient.open(fx.port);
    const g = (await c.read())!;
    expect(g.seq).toBe(0);
    expect(g.payload[0]).toBe(10);
    expect(g.payload.toString('latin1', 1, g.payload.indexOf(0, 1))).toMatch(/quarry/);
    expect(g.payload.subarray(-22).toString()).toBe('mysql_native_password\0');
    c.close();
  });

  it('switches a client that offers another plugin to mysql_native_password', async () => {
    const c = await RawClient.login(fx.port, 'caching_sha2_password');
    const sw = (await c.read())!;
    expect(sw.payload[0]).toBe(0xfe);
    expect(sw.payload.toString('latin1', 1, 22)).toBe('mysql_native_password');
    c.send(Buffer.alloc(20), sw.seq + 1);
    const ok = (await c.read())!;
    expect(ok.payload[0]).toBe(0x00);
    expect(ok.seq).toBe(sw.seq + 2);
    c.close();
  });

  it('answers a garbage handshake with an ERR and a close; others are unaffected', async () => {
    const c = await RawClient.open(fx.port);
    await c.read();
    c.socket.write(Buffer.from([5, 0, 0, 1, 0xde, 0xad, 0xbe, 0xef, 0x01]));
    const err = (await c.read())!;
    expect(err.payload[0]).toBe(0xff);
    expect(errOf(err.payload).errno).toBe(1043);
    expect(await c.read()).toBeUndefined();
    const d = await loggedIn();
    d.send(command(Command.PING));
    expect((await d.read())!.payload[0]).toBe(0);
    d.close();
  });
});

describe('command phase', () => {
  let c: RawClient;
  beforeAll(async () => {
    c = await loggedIn();
  });
  afterAll(() => c.close());

  it('restarts sequence ids at 1 for every command', async () => {
    for (let round = 0; round < 2; round++) {
      c.send(command(Command.QUERY, 'SELECT id FROM w ORDER BY id ASC'));
      // column count, 1 column, EOF, 2 rows, EOF
      const packets = await c.readUntil(6);
      expect(packets.map((p) => p.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(packets[0]!.payload[0]).toBe(1);
      expect(packets[5]!.payload[0]).toBe(0xfe);
    }
  });

  it('marks all but the last result of a multi-statement with SERVER_MORE_RESULTS_EXISTS', async () => {
    c.send(command(Command.QUERY, 'SELECT id FROM w WHERE id=1; SELECT * FROM nosuch'));
    const packets = await c.readUntil(6);
    const firstEof = packets[4]!.payload;
    expect(firstEof[0]).toBe(0xfe);
    expect(firstEof.readUInt16LE(3) & 0x08).toBe(0x08);
    expect(errOf(packets[5]!.payload)).toEqual({ errno: 1064, state: '#42000', message: "unknown local table(s) 'nosuch' in search request" });
  });

  it('answers COM_PING, COM_INIT_DB, COM_SET_OPTION and COM_STATISTICS', async () => {
    c.send(command(Command.PING));
    expect((await c.read())!.payload[0]).toBe(0x00);
    c.send(command(Command.INIT_DB, 'Manticore'));
    expect((await c.read())!.payload[0]).toBe(0x00);
    c.send(command(Command.SET_OPTION, Buffer.from([0, 0])));
    expect((await c.read())!.payload[0]).toBe(0xfe);
    c.send(command(Command.STATISTICS));
    const stats = (await c.read())!;
    expect(stats.seq).toBe(1);
    expect(stats.payload.toString()).toMatch(/^Uptime: \d+ {2}Threads: \d+ {2}Questions: \d+/);
  });

  it('lists a table\'s columns for COM_FIELD_LIST, then EOF', async () => {
    c.send(command(Command.FIELD_LIST, 'w\0'));
    const packets = await c.readUntil(4);
    const names = packets.slice(0, 3).map((p) => {
      const text = p.payload.toString('latin1');
      return text.includes('title') ? 'title' : text.includes('\x01n\x01n') ? 'n' : text.includes('\x02id') ? 'id' : '?';
    });
    expect(names).toEqual(['id', 'title', 'n']);
    expect(packets[3]!.payload[0]).toBe(0xfe);
    c.send(command(Command.FIELD_LIST, 'nosuch\0'));
    expect((await c.read())!.payload[0]).toBe(0xff);
  });

  it('answers an unknown command or an empty packet with an ERR', async () => {
    c.send(command(0x1f));
    const err = (await c.read())!;
    expect(err.seq).toBe(1);
    expect(errOf(err.payload)).toEqual({ errno: 1047, state: '#08S01', message: 'unknown command (code=31)' });
    c.send(Buffer.alloc(0));
    expect((await c.read())!.payload[0]).toBe(0xff);
  });

  it('answers pipelined commands in order, an engine fault as an ERR, and goes on', async () => {
    const engine = fx.engine;
    const execute = engine.execute;
    // one statement the engine throws on, one it rejects: each an INTERNAL error, the connection usable
    engine.execute = (sql, session) => {
      if (sql === 'boom sync') throw new Error('boom sync');
      if (sql === 'boom async') return Promise.reject(new Error('boom async'));
      return execute.call(engine, sql, session);
    };
    try {
      const sqls = ['SELECT id FROM w WHERE id=1', 'boom sync', 'SELECT id FROM w WHERE id=2', 'boom async', 'SELECT id FROM w WHERE id=1'];
      const packet = (sql: string) => new PacketWriter(0).begin().bytes(command(Command.QUERY, sql)).end().finish();
      c.socket.write(Buffer.concat(sqls.map(packet))); // all in one write: each answered only after the one before
      const answers: string[] = [];
      for (const sql of sqls) {
        const first = (await c.read())!;
        if (first.payload[0] === 0xff) { answers.push(`ERR ${errOf(first.payload).message}`); continue; }
        // column count, 1 column, EOF, 1 row, EOF
        const rest = await c.readUntil(4);
        expect(rest.map((p) => p.seq), sql).toEqual([2, 3, 4, 5]);
        answers.push(`row ${rest[2]!.payload.toString('latin1', 1)}`);
      }
      expect(answers).toEqual(['row 1', 'ERR boom sync', 'row 2', 'ERR boom async', 'row 1']);
    } finally {
      engine.execute = execute;
    }
  });

  it('prepares, executes with parameters and closes statements', async () => {
    c.send(command(Command.STMT_PREPARE, 'SELECT id FROM w WHERE id = ?'));
    const prep = await c.readUntil(3); // OK, one param definition, EOF
    expect(prep[0]!.payload[0]).toBe(0);
    const id = prep[0]!.payload.readUInt32LE(1);
    expect(prep[0]!.payload.readUInt16LE(7)).toBe(1);
    const exec = new PacketWriter(0);
    exec.begin().u8(Command.STMT_EXECUTE).u32(id).u8(0).u32(1).u8(0).u8(1).u16(8).u64(2n).end();
    c.socket.write(exec.finish());
    const rows = await c.readUntil(5); // count, column, EOF, row, EOF
    expect(rows[3]!.payload.subarray(0, 2)).toEqual(Buffer.from([0, 0])); // binary row, no NULLs
    expect(rows[3]!.payload.readBigUInt64LE(2)).toBe(2n);
    expect(rows[4]!.payload[0]).toBe(0xfe);
    c.send(command(Command.STMT_CLOSE, Buffer.from([id, 0, 0, 0])));
    c.send(command(Command.STMT_RESET, Buffer.from([id, 0, 0, 0])));
    expect(errOf((await c.read())!.payload).message).toBe('unknown prepared statement');
  });
});

describe('robustness', () => {
  it('refuses a packet over max_packet_size with an ERR and a close', async () => {
    const c = await loggedIn();
    const header = Buffer.from([0, 0, 2, 0]); // 128K announced, the limit is 64K
    c.socket.write(header);
    const err = (await c.read())!;
    expect(errOf(err.payload).message).toMatch(/max_packet_size=65536/);
    expect(await c.read()).toBeUndefined();
  });

  it('survives clients that vanish mid-result and garbage after login', async () => {
    const big = Array.from({ length: 200 }, (_, i) => `(${100 + i}, '${'x'.repeat(200)}', ${i})`).join(',');
    await fx.engine.execute(`INSERT INTO w (id, title, n) VALUES ${big}`, { autocommit: true, database: 'Manticore' });
    for (let i = 0; i < 5; i++) {
      const c = await loggedIn();
      c.send(command(Command.QUERY, 'SELECT * FROM w LIMIT 1000 OPTION max_matches=1000'));
      c.close();
    }
    const g = await loggedIn();
    g.socket.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    g.close();
    const d = await loggedIn();
    d.send(command(Command.QUERY, 'SELECT COUNT(*) FROM w'));
    const packets = await d.readUntil(5);
    expect(packets[3]!.payload.toString('latin1', 1)).toBe('202');
    d.close();
  });
});
