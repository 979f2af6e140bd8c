/** Replies of the JSON write endpoints and `/bulk` in Manticore's shapes, with the seed's `_index`/`_id`. */
import { RawJson, type JsonOut } from '../engine/values/cell-format.js';
import type { BulkReply, DeleteReply, InsertReply, UpdateReply } from '../engine/json/json-api.js';
import { HTTP_BAD_REQUEST, HTTP_CONFLICT, HTTP_INTERNAL } from './errors.js';
import { jsonString } from './json-text.js';

/** Manticore prints document ids unsigned (`%U`). */
export const idJson = (id: bigint): RawJson => new RawJson(BigInt.asUintN(64, id).toString());

/** `{_index, table}`: the seed names the table `_index`, Manticore 7+ clients read `table`. */
const tableFields = (table: string) => ({ _index: table, table });
const idFields = (id: bigint) => ({ _id: idJson(id), id: idJson(id) });

/**
 * The HTTP status line is 200 even when the body says 201 (spec section 10). Written as its text at
 * once: every single-document /insert and /replace answers with it, and the generic render (spread
 * objects, their entries, the parts joined) was about 1.5 kB of garbage a request.
 */
export function insertReplyJson(r: InsertReply): JsonOut {
  const table = jsonString(r.table);
  const id = BigInt.asUintN(64, r.id).toString();
  const tail = r.replace ? '"created":false,"result":"updated","status":200}' : '"created":true,"result":"created","status":201}';
  return new RawJson(`{"_index":${table},"table":${table},"_id":${id},"id":${id},${tail}`);
}

export function updateReplyJson(r: UpdateReply): JsonOut {
  if (r.id === undefined) return { ...tableFields(r.table), updated: r.affected };
  return { ...tableFields(r.table), ...idFields(r.id), result: r.affected ? 'updated' : 'noop' };
}

export function deleteReplyJson(r: DeleteReply): JsonOut {
  if (r.id === undefined) return { ...tableFields(r.table), deleted: r.affected };
  return { ...tableFields(r.table), ...idFields(r.id), found: r.affected > 0, result: r.affected ? 'deleted' : 'not found' };
}

/** The error kinds of the write endpoints' error objects. */
export type WriteErrorType = 'parse_exception' | 'action_request_validation_exception';

/** `{"error":{"type","reason","table"},"status"}` as `/insert`, `/update`, `/delete` and `/bulk` answer. */
export function writeErrorJson(type: WriteErrorType | string, reason: string, table: string | undefined, status: number): JsonOut {
  const error: Record<string, JsonOut> = { type, reason };
  if (table !== undefined) error.table = table;
  return { error, status };
}

/** The status and error type of a failed write: malformed requests 400, the rest 409. */
export function writeErrorKind(code: string): { status: number; type: WriteErrorType } {
  return code === 'PARSE_ERROR'
    ? { status: HTTP_BAD_REQUEST, type: 'parse_exception' }
    : { status: HTTP_CONFLICT, type: 'action_request_validation_exception' };
}

/** `/bulk`: one `bulk` item per committed run, the failed line's item, and the line counters. */
export function bulkReplyJson(r: BulkReply): { status: number; body: JsonOut } {
  const items = r.items.map((it): JsonOut => {
    if (it.kind === 'error') return { [it.op]: { error: { type: it.message, table: it.table }, status: HTTP_CONFLICT } };
    const replaced = it.created !== 0 && it.deleted !== 0;
    return {
      bulk: {
        table: it.table, _id: idJson(it.lastId), created: it.created, deleted: it.deleted, updated: it.updated,
        result: replaced ? 'updated' : 'created', status: replaced ? 200 : 201,
      },
    };
  });
  const status = r.outcome === 'ok' ? 200 : r.outcome === 'parse' ? HTTP_BAD_REQUEST : HTTP_INTERNAL;
  return {
    status,
    body: { items, current_line: r.currentLine, skipped_lines: r.skippedLines, errors: r.outcome !== 'ok', error: r.error },
  };
}
