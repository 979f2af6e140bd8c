/**
 * The engine side of the HTTP JSON API: each endpoint's parsed request body in, a typed reply out.
 * Request bodies are lossless-json values (json-value.ts), so 64-bit ids arrive exact.
 * User errors are thrown as SearchError: PARSE_ERROR for a malformed request (HTTP 400), the other
 * codes for requests that cannot run (duplicate id, unknown column, query errors...).
 */
import type { ExecContext } from '../exec/executor.js';
import type { WriteContext } from '../exec/exec-write.js';
import { execJsonBulk, type BulkLine, type BulkReply } from './json-bulk.js';
import { execEsBulk, type EsBulkDoc, type EsBulkItem } from './json-es-bulk.js';
import { execJsonSearch } from './json-search.js';
import type { JsonValue } from './json-value.js';
import { execJsonDelete, execJsonUpdate, type DeleteReply, type UpdateReply } from './json-modify.js';
import { execJsonInsert, type InsertReply } from './json-write.js';
import type { RowsResult } from '../result.js';
import type { Session } from '../session.js';
import { NO_REPLICATION, type JsonWriteKind } from '../replication-hook.js';

export type { BulkLine, BulkReply, BulkRunItem, BulkErrorItem } from './json-bulk.js';
export type { EsBulkDoc, EsBulkItem } from './json-es-bulk.js';
export type { JsonValue, JsonObject } from './json-value.js';
export type { DeleteReply, UpdateReply } from './json-modify.js';
export type { InsertReply } from './json-write.js';

export interface JsonApi {
  /** `/search`: the hits as a SELECT's rows (`id` column, weights, meta), for the `/search` renderer. */
  search(body: JsonValue, session: Session): Promise<RowsResult>;
  /** `/insert` and `/create` (replace false), `/replace` and `/index` (replace true). */
  insert(body: JsonValue, replace: boolean): Promise<InsertReply>;
  /** `/update` by id or by query. */
  update(body: JsonValue): Promise<UpdateReply>;
  /** `/delete` by id, id list or query. */
  delete(body: JsonValue): Promise<DeleteReply>;
  /** `/bulk`: never rejects for a user error; the reply says which line failed. */
  bulk(lines: BulkLine[]): Promise<BulkReply>;
  /** `/_bulk` (Elasticsearch style): one item per document; `ok` false when any failed. */
  esBulk(docs: EsBulkDoc[]): Promise<{ items: EsBulkItem[]; ok: boolean }>;
}

/**
 * The JSON API over an engine's context. `checkOpen` throws once the engine is closed, so calls
 * then reject as `Engine.execute` does.
 */
export function createJsonApi(ctx: ExecContext, checkOpen: () => void = () => {}): JsonApi {
  const flags = () => ({ notTermsOnlyAllowed: ctx.settings.not_terms_only_allowed, expansionLimit: ctx.settings.expansion_limit, collation: ctx.settings.collation_server });
  const write = (): WriteContext => {
    checkOpen();
    const guard = (table: string, cluster?: string, endpoint?: '/bulk' | '/_bulk') => (ctx.replication ?? NO_REPLICATION).guardLocal(table, cluster, endpoint);
    return { catalog: ctx.catalog, ids: ctx.ids, autoSchema: ctx.settings.auto_schema, flags: flags(), guard };
  };
  // a write naming a cluster (or a replicated table) is the replication layer's, see replication-hook.ts
  const routed = <T>(kind: JsonWriteKind, body: JsonValue, local: () => Promise<T>): Promise<T> => {
    checkOpen();
    return (ctx.replication ?? NO_REPLICATION).routeJson(kind, body, local) ?? local();
  };
  return {
    search: async (body, session) => {
      checkOpen();
      return execJsonSearch(ctx.catalog, body, session, flags(), ctx.dist);
    },
    insert: async (body, replace) => routed(replace ? 'replace' : 'insert', body, () => execJsonInsert(write(), body, replace)),
    update: async (body) => routed('update', body, () => execJsonUpdate(write(), body)),
    delete: async (body) => routed('delete', body, () => execJsonDelete(write(), body)),
    // /bulk never creates tables (spec section 7): auto schema is off for it.
    bulk: async (lines) => {
      checkOpen();
      return (ctx.replication ?? NO_REPLICATION).routeBulk(lines) ?? execJsonBulk({ ...write(), autoSchema: false }, lines);
    },
    esBulk: async (docs) => (ctx.replication ?? NO_REPLICATION).routeEsBulk(docs) ?? execEsBulk(write(), docs),
  };
}
