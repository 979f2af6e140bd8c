/** Writes JsonOut values as compact JSON text: bigints exact, RawJson verbatim, never via a double. */
import { JsonFields, RawJson, type JsonOut } from '../engine/cell-format.js';

function writeString(s: string): string {
  // JSON.stringify escapes quotes, backslashes and control characters as Manticore's writer does.
  return JSON.stringify(s);
}

/** Compact JSON text of `value`. Non-finite numbers become null, as JSON has no literal for them. */
export function toJsonText(value: JsonOut): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return writeString(value);
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  const entries = value instanceof JsonFields ? value.entries : Object.entries(value);
  const parts: string[] = [];
  for (const [key, v] of entries) {
    if (v === undefined) continue;
    parts.push(`${writeString(key)}:${toJsonText(v)}`);
  }
  return `{${parts.join(',')}}`;
}
