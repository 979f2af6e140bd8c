/** Request bodies of the JSON API read exactly: lossless-json keeps 64-bit integers and number text. */
import type { BulkLine, JsonValue } from '../engine/json/json-api.js';
import { parseJsonExact } from './json-fast-parse.js';

/** A body that is not JSON; `message` is Manticore's `unable to parse: <text from the error on>`. */
export class BodyParseError extends Error {}

/** Where lossless-json stopped, from its message (`... at position 45`); 0 when it does not say. */
function errorPosition(e: unknown): number {
  const m = /at position (\d+)/.exec(e instanceof Error ? e.message : '');
  return m ? Number(m[1]) : 0;
}

/** Parses one JSON text; throws BodyParseError with the rest of the text from where parsing failed. */
export function parseJsonText(text: string): JsonValue {
  try {
    return parseJsonExact(text);
  } catch (e) {
    throw new BodyParseError(`unable to parse: ${text.slice(errorPosition(e))}`);
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
