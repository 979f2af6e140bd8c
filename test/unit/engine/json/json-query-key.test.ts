import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { jsonQueryKey, taggedJson } from '../../../../src/engine/json/json-query-key.js';

/** JSON values as the request parser gives them: plain objects and arrays, strings, numbers, lossless numbers. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((b) => new LosslessNumber(b.toString())),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonQueryKey', () => {
  it('writes what JSON.stringify with the tagging replacer writes', () => {
    fc.assert(fc.property(json, (v) => {
      expect(jsonQueryKey(v as never, 1 << 20)).toBe(taggedJson(v));
    }), { numRuns: 2000 });
  });

  it('tells a string from a number and a lossless number of the same text', () => {
    const keys = [
      { match: { title: '12' } }, { match: { title: 12 } }, { match: { title: new LosslessNumber('12') } },
    ].map((q) => jsonQueryKey(q as never, 100));
    expect(new Set(keys).size).toBe(3);
  });

  it('gives no key past the length limit, for a value not plain JSON, or for a nesting deeper than the stack', () => {
    expect(jsonQueryKey({ query_string: 'x'.repeat(50) }, 40)).toBeUndefined();
    expect(jsonQueryKey({ query_string: ['a', 'b', 'c', 'd', 'e', 'f'] } as never, 20)).toBeUndefined();
    expect(jsonQueryKey({ query_string: 'abc' }, 40)).toBe('{"query_string":"sabc"}');
    expect(jsonQueryKey({ match: { id: 5n } } as never, 100)).toBeUndefined();
    expect(jsonQueryKey({ match: new Date(0) } as never, 100)).toBeUndefined();
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonQueryKey(deep as never, 1 << 30)).toBeUndefined();
    expect(jsonQueryKey(undefined, 10)).toBe('undefined');
  });
});
