import { describe, expect, it } from 'vitest';
import { PacketWriter } from '../../../src/mysql/packet-writer.js';
import { PayloadReader } from '../../../src/mysql/payload-reader.js';
import { StatementRegistry } from '../../../src/mysql/prepared-statements.js';
import { quoteString, readParamValue, splitPlaceholders, substitute } from '../../../src/mysql/statement-params.js';

const value = (type: number, write: (w: PacketWriter) => void) => {
  const w = new PacketWriter();
  w.begin();
  write(w);
  w.end();
  return readParamValue(new PayloadReader(w.finish(), 4), type);
};

describe('placeholders', () => {
  it('splits at ? outside quotes and comments', () => {
    expect(splitPlaceholders("SELECT * FROM t WHERE a=? AND b='?' AND c=\"x?\" /* ? */ AND d=? -- ?\n LIMIT ?")).toEqual([
      'SELECT * FROM t WHERE a=', " AND b='?' AND c=\"x?\" /* ? */ AND d=", ' -- ?\n LIMIT ', '',
    ]);
    expect(splitPlaceholders("MATCH('it\\'s ?')")).toHaveLength(1);
  });

  it('substitutes values, quoting strings', () => {
    expect(substitute(['a=', ' b=', ''], ['1', quoteString("it's \\ ok")])).toBe("a=1 b='it\\'s \\\\ ok'");
  });
});

describe('binary parameter values', () => {
  it('decodes integers signed and unsigned, floats, strings and dates', () => {
    expect(value(0x01, (w) => w.u8(0xff))).toBe('-1');
    expect(value(0x8001, (w) => w.u8(0xff))).toBe('255');
    expect(value(0x03, (w) => w.u32(0xfffffffe))).toBe('-2');
    expect(value(0x08, (w) => w.u64(2n ** 63n + 1n))).toBe('-9223372036854775807');
    expect(value(0x8008, (w) => w.u64(2n ** 63n + 1n))).toBe('9223372036854775809');
    expect(value(0x05, (w) => w.bytes(Buffer.from(new Float64Array([2.25]).buffer)))).toBe('2.25');
    expect(value(0x05, (w) => w.bytes(Buffer.from(new Float64Array([3]).buffer)))).toBe('3');
    expect(value(0xfd, (w) => w.lenencText("o'k"))).toBe("'o\\'k'");
    expect(value(0x0c, (w) => w.u8(7).u16(2024).u8(2).u8(29).u8(13).u8(5).u8(9))).toBe("'2024-02-29 13:05:09'");
    expect(value(0x06, () => undefined)).toBe('NULL');
  });
});

describe('StatementRegistry', () => {
  it('executes with bound types, keeps them for the next execute, and honours NULLs and long data', () => {
    const reg = new StatementRegistry();
    const st = reg.prepare('INSERT INTO t (id, title) VALUES (?, ?)');
    expect(st.paramCount).toBe(2);
    const exec = (write: (w: PacketWriter) => void) => {
      const w = new PacketWriter();
      w.begin().u8(0x17).u32(st.id).u8(0).u32(1);
      write(w);
      w.end();
      return reg.executeText(w.finish().subarray(4)).sql;
    };
    expect(exec((w) => w.u8(0).u8(1).u16(0x08).u16(0xfd).u64(5n).lenencText('five'))).toBe("INSERT INTO t (id, title) VALUES (5, 'five')");
    expect(exec((w) => w.u8(0b10).u8(0).u64(6n))).toBe('INSERT INTO t (id, title) VALUES (6, NULL)');
    const long = Buffer.concat([Buffer.from([0x18]), Buffer.from([st.id, 0, 0, 0, 1, 0]), Buffer.from('long text')]);
    expect(reg.appendLongData(long)).toBe(true);
    expect(exec((w) => w.u8(0).u8(0).u64(7n))).toBe("INSERT INTO t (id, title) VALUES (7, 'long text')");
    reg.close(st.id);
    expect(reg.get(st.id)).toBeUndefined();
  });
});
