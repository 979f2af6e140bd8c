/**
 * `/_bulk` on the wire (src/searchdhttp.cpp HttpHandlerEsBulk_c): the Content-Type and body checks,
 * action/source line pairs, and the Elasticsearch-style reply `{items, errors, took}`.
 */
import type { JsonOut } from '../engine/values/cell-format.js';
import type { EsBulkDoc, EsBulkItem, JsonValue } from '../engine/json/json-api.js';
import { isJsonInt, isJsonNumber, isJsonObject, jsonBigInt } from '../engine/json/json-value.js';
import { parseJsonText } from './json-body.js';
import { HTTP_BAD_REQUEST, HTTP_CONFLICT } from './errors.js';
import { writeErrorJson } from './json-render.js';

/** A request-level error: 400 with an error object of this type. */
export class EsBulkError extends Error {
  constructor(readonly type: string, message: string) { super(message); }
}

/** The checks Manticore makes before reading any line. */
export function checkEsBulk(contentType: string | undefined, body: string): void {
  if (contentType === undefined) throw new EsBulkError('illegal_argument_exception', 'Content-Type must be set');
  const parts = contentType.split(/[,; ]/).map((p) => p.trim().toLowerCase());
  if (!parts.includes('application/x-ndjson') && !parts.includes('application/json')) {
    throw new EsBulkError('illegal_argument_exception', `Content-Type header [${contentType}] is not supported`);
  }
  if (body === '') throw new EsBulkError('parse_exception', 'request body is required');
  if (!body.endsWith('\n')) throw new EsBulkError('illegal_argument_exception', 'The bulk request must be terminated by a newline [\n]');
}

/** The action line: `{"<action>": {"_index": ..., "_id": ...}}`. */
function actionLine(line: string): EsBulkDoc {
  let meta: JsonValue;
  try {
    meta = parseJsonText(line);
  } catch {
    throw new EsBulkError('action_request_validation_exception', 'no statement found');
  }
  const first = isJsonObject(meta) ? Object.entries(meta)[0] : undefined;
  if (!first) throw new EsBulkError('action_request_validation_exception', 'no statement found');
  const [action, v] = first;
  if (!isJsonObject(v)) throw new EsBulkError('action_request_validation_exception', `statement ${action} should be an object`);
  if (typeof v._index !== 'string') throw new EsBulkError('action_request_validation_exception', '"_index" property missing');
  const doc: EsBulkDoc = { action, table: v._index.toLowerCase() };
  const id = v._id;
  if (isJsonInt(id)) doc.id = BigInt(id.value);
  // searchd's IsNum: a double too (cJSON reads an integer past uint64 as one), its value truncated
  else if (isJsonNumber(id)) doc.id = jsonBigInt(id);
  else if (typeof id === 'string') doc.id = id;
  else if (id !== undefined && id !== null) throw new EsBulkError('action_request_validation_exception', '_id should be an int or string');
  return doc;
}

/** Lines split on CR or LF, runs of newlines skipped; action and source lines paired (delete has none). */
export function parseEsBulk(body: string): EsBulkDoc[] {
  const lines = body.split(/\r?\n|\r/).filter((l, i, all) => i < all.length - 1 || l !== '');
  const docs: EsBulkDoc[] = [];
  let pending: EsBulkDoc | undefined;
  for (const line of lines) {
    if (pending) {
      try {
        pending.source = parseJsonText(line);
      } catch (e) {
        pending.sourceError = (e as Error).message;
      }
      pending = undefined;
      continue;
    }
    if (line.trim() === '') continue;
    const doc = actionLine(line);
    docs.push(doc);
    if (doc.action !== 'delete') pending = doc;
  }
  return docs;
}

const SHARDS = { total: 1, successful: 1, failed: 0 };

function itemJson(it: EsBulkItem): JsonOut {
  const head = { _index: it.table, _type: 'doc', _id: it.id };
  if (it.error) return { [it.action]: { ...head, status: HTTP_BAD_REQUEST, error: it.error } };
  return {
    [it.action]: { ...head, _version: 1, result: it.result ?? 'created', _shards: SHARDS, _seq_no: 0, _primary_term: 1, status: 201 },
  };
}

/** `{"items":[...],"errors":bool,"took":1}`: 200, or 409 when any document failed. */
export function esBulkReplyJson(r: { items: EsBulkItem[]; ok: boolean }): { status: number; body: JsonOut } {
  return { status: r.ok ? 200 : HTTP_CONFLICT, body: { items: r.items.map(itemJson), errors: !r.ok, took: 1 } };
}

export function esBulkErrorJson(e: EsBulkError): JsonOut {
  return writeErrorJson(e.type, e.message, undefined, HTTP_BAD_REQUEST);
}
