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

/**
 * NDJSON lines of `/bulk`: leading whitespace trimmed (a blank line is an empty line, which closes a
 * transaction), the empty piece after a final newline dropped.
 */
export function parseNdjson(text: string): BulkLine[] {
  const pieces = text.split('\n');
  if (pieces.length > 1 && pieces[pieces.length - 1]!.trim() === '') pieces.pop();
  return pieces.map((raw): BulkLine => {
    const line = trimLine(raw);
    if (line === '') return { kind: 'empty' };
    try {
      return { kind: 'json', value: parseJsonText(line) };
    } catch (e) {
      return { kind: 'bad', error: (e as Error).message };
    }
  });
}

/** True when a Content-Type names NDJSON (`application/x-ndjson`, optionally with `;params`). */
export function isNdjsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/x-ndjson';
}
