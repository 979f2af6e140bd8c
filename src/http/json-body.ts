/** Request bodies of the JSON API read exactly: lossless-json keeps 64-bit integers and number text. */
import type { BulkLine, JsonValue } from '../engine/json/json-api.js';
import { parseJsonExact } from './json-fast-parse.js';

/** A body that is not JSON; `message` is Manticore's `unable to parse: <text from the error on>`. */
export class BodyParseError extends Error {}

/** searchd's cJSON refuses an array or object nested deeper than this (CJSON_NESTING_LIMIT). */
const NESTING_LIMIT = 1000;

/**
 * One pass over the text outside strings: the first `[` or `{` opened at depth NESTING_LIMIT + 1
 * (-1 if none), and where the string the text ends inside began (-1 if it ends outside one).
 */
function scanNesting(text: string): { tooDeep: number; openString: number } {
  let depth = 0;
  let stringAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (stringAt >= 0) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) stringAt = -1;
    } else if (c === 34) stringAt = i;
    else if (c === 91 || c === 123) { if (++depth > NESTING_LIMIT) return { tooDeep: i, openString: -1 }; }
    else if (c === 93 || c === 125) depth--;
  }
  return { tooDeep: -1, openString: stringAt };
}

/**
 * Where parsing failed, as cJSON's error pointer: lossless-json's position (`... at position 45`);
 * at the end of the text, just after the quote of a string left open (cJSON's parse_string) or else
 * the last character; for a body too deep to parse (no position: the call stack ran out) the bracket
 * past cJSON's nesting limit, never the whole body.
 */
function errorPosition(e: unknown, text: string): number {
  const m = /at position (\d+)/.exec(e instanceof Error ? e.message : '');
  if (!m) return Math.max(0, scanNesting(text).tooDeep);
  const at = Number(m[1]);
  if (at < text.length || text.length === 0) return at;
  const open = scanNesting(text).openString;
  return open >= 0 ? open + 1 : text.length - 1;
}

/**
 * Parses one JSON text; throws BodyParseError with the rest of the text from where parsing failed
 * (searchd prints cJSON's error pointer with %s: the rest of the body, uncapped).
 */
export function parseJsonText(text: string): JsonValue {
  try {
    return parseJsonExact(text);
  } catch (e) {
    throw new BodyParseError(`unable to parse: ${text.slice(errorPosition(e, text))}`);
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
