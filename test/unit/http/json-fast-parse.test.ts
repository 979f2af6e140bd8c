import fc from 'fast-check';
import { isLosslessNumber, parse as losslessParse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseCJson, repeatedPairs } from '../../../src/http/cjson-parse.js';
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

/** Whether a parsed value has an object whose text repeated a key. */
function repeats(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || isLosslessNumber(v)) return false;
  if (!Array.isArray(v) && repeatedPairs.has(v)) return true;
  return Object.values(v).some(repeats);
}

/**
 * The fast path gives the cJSON reader's value or error; where lossless-json takes the text, its
 * value too, but for what cJSON reads otherwise: a repeated key (the first value here; lossless-json
 * keeps the last of equal ones) and a surrogate escape (lossless-json takes a lone one, cJSON fails).
 */
function same(text: string): void {
  const cjson = outcome(parseCJson, text);
  expect(outcome(parseJsonExact, text)).toEqual(cjson);
  const lossless = outcome((t) => losslessParse(t), text) as { value?: unknown };
  let parsed: unknown;
  try { parsed = parseCJson(text); } catch { /* lossless-json took what cJSON refuses: a surrogate below */ }
  if ('value' in lossless && !/\\u[dD][89a-fA-F]/.test(text) && !repeats(parsed)) expect(cjson).toEqual(lossless);
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
  it('gives the cJSON reader\'s value or error (lossless-json\'s value where it takes the text) for any text of numbers, strings, keys and nesting', () => {
    fc.assert(fc.property(value, (text) => same(text)), { numRuns: 3000 });
  });

  it('gives the cJSON reader\'s error position for broken texts', () => {
    fc.assert(fc.property(value, fc.nat(), fc.constantFrom('', '}', ',', 'x', '"', ':'), (text, at, junk) => {
      const i = at % (text.length + 1);
      same(text.slice(0, i) + junk + text.slice(i));
    }), { numRuns: 2000 });
  });

  it('keeps 64-bit integers and number texts exact', () => {
    const v = parseJsonExact('{"id":18446744073709551615,"f":1.50,"e":1e5,"z":-0,"n":7}') as Record<string, { value: string }>;
    expect(Object.values(v).map((x) => x.value)).toEqual(['18446744073709551615', '1.50', '1e5', '-0', '7']);
  });

  it('keeps a repeated key\'s first value (cJSON_GetObjectItem finds it) and lists every pair', () => {
    const v = parseJsonExact('{"a":1,"b":"x:y","a":2}') as Record<string, { value: string }>;
    expect(v.a!.value).toBe('1');
    expect(repeatedPairs.get(v)!.map(([k, x]) => `${k}=${typeof x === 'string' ? x : (x as { value: string }).value}`)).toEqual(['a=1', 'b=x:y', 'a=2']);
    const w = parseJsonExact('{"a":"x:y","a":"z"}') as Record<string, string>;
    expect(w.a).toBe('x:y');
    expect(repeatedPairs.has(parseJsonExact('{"a":1,"b":2}') as object)).toBe(false);
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
  it('answers as lossless-json does up to cJSON\'s 1000 levels, and refuses the bracket past them', () => {
    const deep = (t: string) => expect(canonical(parseJsonExact, t)).toBe(canonical((x) => losslessParse(x), t));
    for (const depth of [10, 300, 1000]) deep(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
    deep(`${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`);
    for (const depth of [1001, 5000, 100_000, 1_000_000]) {
      expect(canonical(parseJsonExact, `${'['.repeat(depth)}1${']'.repeat(depth)}`)).toBe('error: JSON syntax error at position 1000');
    }
    expect(canonical(parseJsonExact, `${'{"a":'.repeat(1001)}1${'}'.repeat(1001)}`)).toBe('error: JSON syntax error at position 5000');
  });
});
