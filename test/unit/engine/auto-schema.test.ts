import { describe, expect, it } from 'vitest';
import { inferSchema, inferType } from '../../../src/engine/auto-schema.js';
import type { Literal } from '../../../src/engine/values/literal.js';

const s = (v: string): Literal => ({ t: 'string', v });
const i = (v: bigint): Literal => ({ t: 'int', v });
const f = (v: number): Literal => ({ t: 'float', v });

describe('auto schema', () => {
  it('infers types from values as test-auto-schema.rec shows', () => {
    expect(inferType(s('iPhone'))).toBe('text');
    expect(inferType(s('1591362342000'))).toBe('text');
    expect(inferType(s('null'))).toBe('text');
    expect(inferType(s('[1,2,3]'))).toBe('json');
    expect(inferType(s('{"a": 1}'))).toBe('json');
    expect(inferType(s('test@mail.com'))).toBe('string');
    expect(inferType(i(256n))).toBe('uint');
    expect(inferType(i(1099511627776n))).toBe('bigint');
    expect(inferType(i(-1n))).toBe('bigint');
    expect(inferType(f(1.5))).toBe('float');
    expect(inferType({ t: 'tuple', v: [i(1n), i(2n)] })).toBe('mva');
    expect(inferType({ t: 'tuple', v: [i(12345678901234n)] })).toBe('mva64');
  });

  it('puts text fields first, then attributes, each in statement order', () => {
    const schema = inferSchema('t', ['id', 'n', 'title', 'price', 'body'], [[i(1n), i(5n), s('x'), f(1.5), s('y')]]);
    expect(schema.columns.map((c) => `${c.name}:${c.type}`)).toEqual(['title:text', 'body:text', 'n:uint', 'price:float']);
    expect(schema.columns[0]).toMatchObject({ indexed: true, stored: true });
  });

  it('widens compatible types across rows and rejects incompatible ones', () => {
    expect(inferSchema('t', ['a'], [[i(1n)], [i(1n << 40n)]]).columns[0].type).toBe('bigint');
    expect(inferSchema('t', ['a'], [[i(1n)], [f(0.5)]]).columns[0].type).toBe('float');
    expect(() => inferSchema('t', ['a'], [[i(1n)], [s('x')]])).toThrow(/incompatible/);
  });
});
