import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../src/util/deep-freeze.js';

describe('deepFreeze', () => {
  it('freezes nested objects and arrays, leaves typed arrays and class instances writable', () => {
    const v = deepFreeze({ a: [{ b: 1 }], t: new Uint8Array(2) });
    expect(Object.isFrozen(v.a[0])).toBe(true);
    expect(() => { (v.a as unknown[]).push(1); }).toThrow(TypeError);
    v.t[0] = 7;
    expect(v.t[0]).toBe(7);
    const re = deepFreeze({ r: /a/g }).r;
    re.exec('aa');
    expect(re.lastIndex).toBe(1);
  });
});
