/**
 * The text a JSON query object is cached under (the /search query trees in json-search.ts and the
 * highlight's query trees in snippets/highlight-json.ts): JSON with strings tagged `s` and lossless
 * numbers `n`, so no value's text passes for another's.
 */
import { isLosslessNumber } from 'lossless-json';
import type { JsonValue } from './json-value.js';

/** A value that is not plain JSON (a BigInt, a class instance): its query is not cached. */
const NOT_PLAIN = new Error('not plain JSON');
/** The key grew past its limit: thrown, as undefined means a value JSON leaves out. */
const TOO_LONG = new Error('key too long');

/**
 * The key of a query object up to `maxLength` characters; undefined for a longer one or one holding a
 * value that is not JSON (a BigInt). The text is JSON.stringify(query, taggedValue)'s (a test holds them
 * equal), written by hand: the replacer's call per value made it the costliest step of a cached query's
 * lookup (1.2% of a `@title` /search with highlight, taken twice per request), and a long query stops
 * being written once past `maxLength`.
 */
export function jsonQueryKey(query: JsonValue | undefined, maxLength: number): string | undefined {
  if (query === undefined) return 'undefined';
  try {
    const text = keyText(query, maxLength);
    return text !== undefined && text.length <= maxLength ? text : undefined;
  } catch {
    // not plain JSON, or nested deeper than the stack allows (the parse then says so)
    return undefined;
  }
}

/** JSON.stringify(query, taggedValue) as the cache keys were first written: the reference for keyText. */
export function taggedJson(query: unknown): string | undefined {
  return JSON.stringify(query, taggedValue);
}

function taggedValue(_key: string, v: unknown): unknown {
  if (typeof v === 'string') return `s${v}`;
  if (isLosslessNumber(v)) return `n${v.value}`;
  if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) throw new TypeError('not plain JSON');
  }
  return v;
}

/** `v` as taggedJson writes it (undefined where JSON.stringify leaves a value out); throws TOO_LONG once past `max`. */
function keyText(v: unknown, max: number): string | undefined {
  switch (typeof v) {
    case 'string': return JSON.stringify(`s${v}`);
    case 'number': return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean': return v ? 'true' : 'false';
    case 'undefined': case 'function': case 'symbol': return undefined;
    case 'bigint': throw NOT_PLAIN;
    default: break;
  }
  if (v === null) return 'null';
  if (isLosslessNumber(v)) return JSON.stringify(`n${v.value}`);
  const proto = Object.getPrototypeOf(v);
  if (proto === Array.prototype) {
    const a = v as unknown[];
    let out = '[';
    for (let i = 0; i < a.length; i++) {
      out += `${i ? ',' : ''}${keyText(a[i], max) ?? 'null'}`;
      if (out.length > max) throw TOO_LONG;
    }
    return `${out}]`;
  }
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const o = v as Record<string, unknown>;
  let out = '{';
  for (const k of Object.keys(o)) {
    const text = keyText(o[k], max);
    if (text === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${text}`;
    if (out.length > max) throw TOO_LONG;
  }
  return `${out}}`;
}
