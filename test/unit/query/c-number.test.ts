import { describe, expect, it } from 'vitest';
import { atoi, quorumPercent, quorumThreshold, strtodPrefix } from '../../../src/query/c-number.js';

describe('strtodPrefix', () => {
  it('reads the longest decimal prefix, with exponent and sign', () => {
    expect(strtodPrefix('1.5$', 0)).toEqual({ value: 1.5, end: 3 });
    expect(strtodPrefix('x.25e2y', 1)).toEqual({ value: 25, end: 6 });
    expect(strtodPrefix('-2 ', 0)).toEqual({ value: -2, end: 2 });
    expect(strtodPrefix('3e', 0)).toEqual({ value: 3, end: 1 });
  });

  it('reads hex numbers as C does', () => {
    expect(strtodPrefix('0x10z', 0)).toEqual({ value: 16, end: 4 });
    expect(strtodPrefix('0x1p3', 0)).toEqual({ value: 8, end: 5 });
    expect(strtodPrefix('0xg', 0)).toEqual({ value: 0, end: 1 });
  });

  it('reads nothing from a non-number', () => {
    expect(strtodPrefix('.', 0)).toEqual({ value: 0, end: 0 });
    expect(strtodPrefix('e5', 0)).toEqual({ value: 0, end: 0 });
  });
});

describe('quorum arithmetic', () => {
  it('truncates the fraction to a percentage in float32', () => {
    expect(quorumPercent(0.59)).toBe(58);
    expect(quorumPercent(0.6)).toBe(60);
    expect(quorumPercent(0.5)).toBe(50);
    expect(quorumPercent(1)).toBe(100);
  });

  it('rounds the percentage of the word count half up, in float32', () => {
    expect(quorumThreshold(58, true, 6)).toBe(3);
    expect(quorumThreshold(60, true, 6)).toBe(4);
    expect(quorumThreshold(40, true, 6)).toBe(2);
    expect(quorumThreshold(10, true, 2)).toBe(0);
    expect(quorumThreshold(3, false, 6)).toBe(3);
  });

  it('reads digits like atoi', () => {
    expect(atoi('0042')).toBe(42);
    expect(atoi('12x')).toBe(12);
  });
});
