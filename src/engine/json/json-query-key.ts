/**
 * The text a JSON query object is cached under (the /search query trees in json-search.ts and the
 * highlight's query trees in snippets/highlight-json.ts): JSON with strings tagged `s` and lossless
 * numbers `n`, so no value's text passes for another's.
 */
import { isLosslessNumber } from 'lossless-json';
import type { JsonValue } from './json-value.js';

/** The key of a query object up to `maxLength` characters; undefined for a longer one or one holding a value that is not JSON (a BigInt). */
export function jsonQueryKey(query: JsonValue | undefined, maxLength: number): string | undefined {
  if (query === undefined) return 'undefined';
  try {
    const text = JSON.stringify(query, taggedValue);
    return text.length <= maxLength ? text : undefined;
  } catch {
    return undefined;
  }
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
