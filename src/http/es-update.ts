/**
 * POST /<table>/_update/<id> {"doc": {...}}: Manticore's Elasticsearch-like partial replace (manual
 * REPLACE.md "Partial replace"; Buddy's Replace plugin). Buddy turns it into the SQL partial replace,
 * REPLACE INTO t SET ... WHERE id = N, and answers {"_index": t, "updated": 1}; so does this route,
 * through the same statement (engine partial-replace.ts), so a table's columns, a missing document and
 * the errors behave as in SQL. A `cluster:table` path names the table alone, as Buddy's query does.
 */
import { isLosslessNumber, stringify as losslessStringify } from 'lossless-json';
import type { Engine } from '../engine/engine.js';
import type { JsonValue } from '../engine/json/json-api.js';
import type { Session } from '../engine/session.js';
import { asSearchError, SearchError } from '../util/errors.js';
import { BodyParseError, parseJsonText } from './json-body.js';
import { writeErrorJson, writeErrorKind } from './json-render.js';
import { HTTP_BAD_REQUEST } from './errors.js';
import { jsonText, type TextReply } from './sql-routes.js';

const quoteText = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const quoteName = (s: string) => `\`${s.replace(/`/g, '``')}\``;

/** A JSON value as the SQL literal Buddy writes for it: numbers as they are, lists of numbers as (a,b), the rest text. */
function sqlValue(v: JsonValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (isLosslessNumber(v)) return v.value;
  if (typeof v === 'string') return quoteText(v);
  if (Array.isArray(v) && v.every(isLosslessNumber)) return `(${v.map((x) => x.value).join(',')})`;
  return quoteText(losslessStringify(v) ?? '');
}

/** The table a path names: `cluster:table` names the table alone, as Buddy's query does. */
function tableOf(tablePath: string): string {
  return tablePath.includes(':') ? tablePath.slice(tablePath.indexOf(':') + 1).trim() : tablePath.trim();
}

/** The partial REPLACE statement a request stands for. */
export function esUpdateSql(tablePath: string, id: string, body: JsonValue): string {
  if (!/^\d+$/.test(id)) throw new SearchError('PARSE_ERROR', `document id must be a positive integer, got '${id}'`);
  const table = tableOf(tablePath);
  const doc = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, JsonValue>).doc : undefined;
  const fields = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? Object.entries(doc as Record<string, JsonValue>) : [];
  // an empty doc writes the document back as it is (Buddy's merge over nothing)
  const set = fields.length ? fields.map(([k, v]) => `${quoteName(k)}=${sqlValue(v)}`).join(', ') : `id=${id}`;
  return `REPLACE INTO ${quoteName(table)} SET ${set} WHERE id = ${id}`;
}

export async function esUpdateReply(engine: Engine, session: Session, tablePath: string, id: string, text: string): Promise<TextReply> {
  const table = tableOf(tablePath);
  try {
    const sql = esUpdateSql(tablePath, id, parseJsonText(text.trim() === '' ? '{}' : text));
    const out = await engine.execute(sql, session);
    const r = out[out.length - 1];
    if (r?.kind === 'error') {
      const { status, type } = writeErrorKind(r.code);
      return jsonText(status, writeErrorJson(type, r.message, table, status));
    }
    return jsonText(200, { _index: table, updated: 1 });
  } catch (e) {
    if (e instanceof BodyParseError) return jsonText(HTTP_BAD_REQUEST, writeErrorJson('parse_exception', e.message, table, HTTP_BAD_REQUEST));
    const err = asSearchError(e);
    const { status, type } = writeErrorKind(err.code);
    return jsonText(status, writeErrorJson(type, err.message, table, status));
  }
}
