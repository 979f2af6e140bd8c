/**
 * POST /autocomplete {"table", "query" [, "options": {...}]}: Manticore Buddy's JSON form of CALL
 * AUTOCOMPLETE (manual, Searching/Autocomplete.md). The body becomes that CALL (options as quoted
 * text, so Buddy's range errors name them) and the answer is its result set in `/sql?mode=raw`'s
 * array shape; errors are `{"error": message}`, with Buddy's messages for a missing query or table.
 */
import type { Engine } from '../engine/engine.js';
import type { JsonValue } from '../engine/json/json-api.js';
import type { Session } from '../engine/session.js';
import { parseJsonText } from './json-body.js';
import { errorBody, HTTP_BAD_REQUEST } from './errors.js';
import { renderRawReply } from './render-raw.js';
import { jsonText, type TextReply } from './sql-routes.js';

/** Buddy reads these and ignores any other key of "options". */
const KNOWN = new Set(['fuzziness', 'prepend', 'append', 'expansion_len', 'layouts', 'preserve', 'force_bigrams']);

const quote = (s: string): string => `'${s.replace(/[\\']/g, '\\$&')}'`;

/** An option's value as CALL AUTOCOMPLETE reads it: true/false as 1/0, a layouts array as a comma list. */
function optionText(v: JsonValue): string {
  if (v === true || v === false) return v ? '1' : '0';
  if (Array.isArray(v)) return v.map((x) => String(x)).join(',');
  return v === null ? '' : String(v);
}

/** The CALL a body stands for, or Buddy's error text for one it cannot read. */
export function autocompleteSql(body: JsonValue): string {
  const obj = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, JsonValue>) : {};
  if (typeof obj.query !== 'string') throw new Error('Failed to parse query: make sure you have query and it is a string');
  if (typeof obj.table !== 'string') throw new Error('Failed to parse query: make sure you have table and it is a string');
  const opts = obj.options;
  const entries = typeof opts === 'object' && opts !== null && !Array.isArray(opts) ? Object.entries(opts as Record<string, JsonValue>) : [];
  const options = entries.filter(([name]) => KNOWN.has(name)).map(([name, v]) => `, ${quote(optionText(v))} AS ${name}`).join('');
  return `CALL AUTOCOMPLETE(${quote(obj.query)}, ${quote(obj.table)}${options})`;
}

export async function autocompleteReply(engine: Engine, session: Session, text: string): Promise<TextReply> {
  let sql: string;
  try {
    sql = autocompleteSql(parseJsonText(text.trim() === '' ? '{}' : text));
  } catch (e) {
    return jsonText(HTTP_BAD_REQUEST, errorBody((e as Error).message));
  }
  const out = await engine.execute(sql, session);
  const reply = renderRawReply(out);
  return jsonText(out.some((r) => r.kind === 'error') ? HTTP_BAD_REQUEST : reply.status, reply.body);
}
