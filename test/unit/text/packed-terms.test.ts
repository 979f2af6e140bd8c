// TermNumbers.nameOrder: numbers in name order as the default sort gives it, kept up to date as names
// arrive between calls (only the new ones sorted and merged in).
import { describe, expect, it } from 'vitest';
import { TermNumbers } from '../../../src/text/packed-terms.js';

function rng(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
}

describe('TermNumbers.nameOrder', () => {
  it('orders by UTF-16 code units after every batch of new names, repeats and non-ASCII included', () => {
    const random = rng(7);
    const alphabet = ['a', 'b', 'z', 'é', 'ß', '1', 'A', '\u4e2d', '\ud83d\ude00'];
    const numbers = new TermNumbers();
    for (let batch = 0; batch < 30; batch++) {
      const count = Math.floor(random() * 200);
      for (let i = 0; i < count; i++) {
        let w = '';
        const len = 1 + Math.floor(random() * 5);
        for (let k = 0; k < len; k++) w += alphabet[Math.floor(random() * alphabet.length)];
        numbers.numberOf(w);
      }
      const { order, rank } = numbers.nameOrder();
      const expected = numbers.names.map((n, i) => [n, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, i]) => i);
      expect(Array.from(order)).toEqual(expected);
      for (let r = 0; r < order.length; r++) expect(rank[order[r]!]).toBe(r);
    }
  });

  it('is empty for no names', () => {
    const { order, rank } = new TermNumbers().nameOrder();
    expect(order.length).toBe(0);
    expect(rank.length).toBe(0);
  });
});

describe('TermNumbers.numberOf', () => {
  it('gives each name one number, first seen first, through the table growing, and find() agrees', () => {
    const random = rng(11);
    const numbers = new TermNumbers();
    const expected = new Map<string, number>();
    // 20,000 draws of 5,000 names: repeats, names of one hash-colliding shape (a prefix and a count)
    for (let i = 0; i < 20_000; i++) {
      const name = `w${Math.floor(random() * 5000)}`;
      // a fresh string each time, as the tokenizer makes them
      const got = numbers.numberOf((name + ' ').slice(0, -1));
      if (!expected.has(name)) expected.set(name, expected.size);
      expect(got).toBe(expected.get(name));
    }
    expect(numbers.names.length).toBe(expected.size);
    for (const [name, n] of expected) {
      expect(numbers.names[n]).toBe(name);
      expect(numbers.find(name)).toBe(n);
    }
    expect(numbers.find('absent')).toBeUndefined();
    expect(numbers.find('')).toBeUndefined();
    expect(numbers.numberOf('')).toBe(expected.size);
    expect(numbers.find('')).toBe(expected.size);
  });

  it('numbersOf numbers a list as numberOf one by one: repeats within the list and with earlier names, through growth', () => {
    const random = rng(12);
    const one = new TermNumbers();
    const many = new TermNumbers();
    // lists of up to 3,000 names drawn from 8,000 (repeats inside a list and across lists; the table doubles mid-list)
    for (let round = 0; round < 12; round++) {
      const list = Array.from({ length: Math.floor(random() * 3000) }, () => `n${Math.floor(random() * 8000)}`);
      const out = new Int32Array(list.length);
      many.numbersOf(list, out);
      for (let k = 0; k < list.length; k++) expect(out[k]).toBe(one.numberOf(list[k]));
    }
    expect(many.names).toEqual(one.names);
    for (let n = 0; n < one.names.length; n++) expect(many.find(one.names[n])).toBe(n);
  });
});
