/** Request bodies of the JSON API read as searchd reads them (cjson-parse.ts), 64-bit integers and number text exact. */
import type { BulkLine, JsonValue } from '../engine/json/json-api.js';
import { JsonSyntaxError } from './cjson-parse.js';
import { parseJsonExact } from './json-fast-parse.js';

/** A body that is not JSON; `message` is Manticore's `unable to parse: <text from the error on>`. */
export class BodyParseError extends Error {}

/**
 * Parses one JSON text as searchd's cJSON does (trailing text ignored, a repeated key's first value,
 * nesting to 1000); throws BodyParseError with the rest of the text from cJSON's error pointer
 * (searchd prints it with %s: the rest of the body, uncapped).
 */
export function parseJsonText(text: string): JsonValue {
  try {
    return parseJsonExact(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    throw new BodyParseError(`unable to parse: ${text.slice(e.position)}`);
  }
}

const WHITESPACE = /\s/;

/**
 * A line without its leading whitespace and final `\r`, as `.replace(/^\s+/, '').replace(/\r$/, '')`
 * but testing the ends first: a bulk line seldom has either, and then nothing is run or copied.
 */
function trimLine(raw: string): string {
  let line = raw.length > 0 && WHITESPACE.test(raw[0]!) ? raw.replace(/^\s+/, '') : raw;
  if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
  return line;
}

/** One NDJSON line as the engine reads it: empty, a JSON value, or the text of its parse error. */
function bulkLine(raw: string): BulkLine {
  const line = trimLine(raw);
  if (line === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: parseJsonText(line) };
  } catch (e) {
    return { kind: 'bad', error: (e as Error).message };
  }
}

/**
 * NDJSON lines of `/bulk`: leading whitespace trimmed (a blank line is an empty line, which closes a
 * transaction), the blank piece after a final newline dropped. One pass over the body (indexOf of each
 * newline), no array of its pieces first.
 */
export function parseNdjson(text: string): BulkLine[] {
  const lines: BulkLine[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
    lines.push(bulkLine(text.slice(start, end)));
    start = end + 1;
  }
  const last = text.slice(start);
  if (lines.length === 0 || last.trim() !== '') lines.push(bulkLine(last));
  return lines;
}

/** True when a Content-Type names NDJSON (`application/x-ndjson`, optionally with `;params`). */
export function isNdjsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/x-ndjson';
}
