import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printfFixed } from '../../../../src/engine/values/printf-fixed.js';

describe('printfFixed', () => {
  it('prints the exact binary value rounded half to even', () => {
    expect(printfFixed(0.0078125, 6)).toBe('0.007812'); // an exact tie: glibc keeps the even digit
    expect(printfFixed(0.0234375, 6)).toBe('0.023438'); // tie rounding up to even
    expect(printfFixed(Math.fround(1099.99), 6)).toBe('1099.989990');
    expect(printfFixed(Math.fround(1099.99), 8)).toBe('1099.98999023');
  });

  it('never switches to exponent notation', () => {
    expect(printfFixed(Math.fround(3.4e38), 6)).toBe('339999995214436424907732413799364296704.000000');
    expect(printfFixed(Math.fround(1e21), 6)).toBe('1000000020040877342720.000000');
    expect(printfFixed(Math.fround(1e-45), 8)).toBe('0.00000000');
  });

  it('keeps the sign of negative values and negative zero', () => {
    expect(printfFixed(-1.5, 6)).toBe('-1.500000');
    expect(printfFixed(-0, 6)).toBe('-0.000000');
    expect(printfFixed(0, 0)).toBe('0');
  });

  it('prints non-finite values as C does', () => {
    expect(printfFixed(Number.NaN, 6)).toBe('nan');
    expect(printfFixed(Infinity, 6)).toBe('inf');
    expect(printfFixed(-Infinity, 6)).toBe('-inf');
  });

  it('is within half a unit of the last decimal of the value (property)', () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }), (x) => {
        const text = printfFixed(x, 6);
        expect(text).toMatch(/^-?\d+\.\d{6}$/);
        expect(Math.abs(Number(text) - x)).toBeLessThanOrEqual(0.5e-6 + Math.abs(x) * 1e-15);
      }),
    );
  });
});
