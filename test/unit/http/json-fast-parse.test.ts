import fc from 'fast-check';
import { isLosslessNumber, parse as losslessParse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../../src/http/json-fast-parse.js';

/** The outcome of a parser: its value (numbers as their text) or its error message. */
function outcome(parse: (t: string) => unknown, text: string): unknown {
  const plain = (v: unknown): unknown => {
    if (isLosslessNumber(v)) return { number: v.value };
    if (Array.isArray(v)) return v.map(plain);
    if (v !== null && typeof v === 'object') {
      return { proto: Object.getPrototypeOf(v) === Object.prototype, entries: Object.entries(v).map(([k, x]) => [k, plain(x)]) };
    }
    return v;
  };
  try {
    return { value: plain(parse(text)) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function same(text: string): void {
  expect(outcome(parseJsonExact, text)).toEqual(outcome((t) => losslessParse(t), text));
}

// Number texts JSON.parse keeps and texts it does not (64-bit, trailing zeros, exponents, -0).
const NUMBERS = ['0', '-1', '42', '123456789012345', '1513686608316989453', '18446744073709551615', '-9223372036854775808',
  '9007199254740993', '1.5', '1.50', '0.1', '1e5', '1E+2', '2.5e-3', '-0', '-0.0', '1e400', '0.30000000000000004', '100'];
const STRINGS = ['"a"', '"a:b"', '"x\\u003ay"', '"2020-01-02"', '"v1.5"', '"\\"q\\""', '"é"', '"\\ud83d\\ude00"', '"1e5"', '""'];
const COLONS = [':', ':', ': ', ' :\t', ':\r\n '];
const KEYS = ['"a"', '"b"', '"__proto__"', '"k:1"', '"1"', '"id"', '"\\u0061"'];

const value: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...NUMBERS, ...STRINGS, 'true', 'false', 'null'),
    fc.array(tie('v'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
    // JSON's whitespace around a colon: a number after it is found past the whitespace
    fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...COLONS), tie('v')), { maxLength: 4 })
      .map((kv) => `{${kv.map(([k, colon, x]) => `${k}${colon}${x}`).join(', ')}}`),
  ),
})).v;

describe('parseJsonExact', () => {
  it('gives lossless-json\'s value or error for any text of numbers, strings, keys and nesting', () => {
    fc.assert(fc.property(value, (text) => same(text)), { numRuns: 3000 });
  });

  it('gives lossless-json\'s error position for broken texts', () => {
    fc.assert(fc.property(value, fc.nat(), fc.constantFrom('', '}', ',', 'x', '"', ':'), (text, at, junk) => {
      const i = at % (text.length + 1);
      same(text.slice(0, i) + junk + text.slice(i));
    }), { numRuns: 2000 });
  });

  it('keeps 64-bit integers and number texts exact', () => {
    const v = parseJsonExact('{"id":18446744073709551615,"f":1.50,"e":1e5,"z":-0,"n":7}') as Record<string, { value: string }>;
    expect(Object.values(v).map((x) => x.value)).toEqual(['18446744073709551615', '1.50', '1e5', '-0', '7']);
  });

  it('refuses a repeated key with another value, keeps one with the same value', () => {
    expect(() => parseJsonExact('{"a":1,"a":2}')).toThrow("Duplicate key 'a'");
    expect(() => parseJsonExact('{"a":"x:y","a":"z"}')).toThrow("Duplicate key 'a'");
    expect(parseJsonExact('{"a":{"b":1},"a":{"b":1}}')).toEqual(losslessParse('{"a":{"b":1},"a":{"b":1}}'));
  });

  it('keeps `__proto__` as an ordinary key', () => {
    const v = parseJsonExact('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__']);
  });
});

/** A parsed value as text, built without recursion (comparing deep values recursively overflows the stack). */
function canonical(parse: (t: string) => unknown, text: string): string {
  let root: unknown;
  try {
    root = parse(text);
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
  const out: string[] = [];
  const todo: Array<{ text: string } | { value: unknown }> = [{ value: root }];
  while (todo.length) {
    const item = todo.pop()!;
    if ('text' in item) { out.push(item.text); continue; }
    const v = item.value;
    if (isLosslessNumber(v)) out.push(`n${v.value}`);
    else if (Array.isArray(v)) {
      todo.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) todo.push({ value: v[i] }, { text: ',' });
      out.push('[');
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      todo.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) todo.push({ value: entries[i]![1] }, { text: `${JSON.stringify(entries[i]![0])}:` });
      out.push(Object.getPrototypeOf(v) === Object.prototype ? '{' : '{proto!');
    } else out.push(JSON.stringify(v) ?? String(v));
  }
  return out.join('');
}

describe('parseJsonExact on deep nesting', () => {
  it('answers as lossless-json does, at any depth', () => {
    const deep = (t: string) => expect(canonical(parseJsonExact, t)).toBe(canonical((x) => losslessParse(x), t));
    for (const depth of [10, 300, 5000, 200000]) deep(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
    deep(`${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`);
  });
});
