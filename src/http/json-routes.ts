/**
 * The JSON API routes: `/search`, `/insert` (`/create`), `/replace` (`/index`), `/update`,
 * `/delete`, `/bulk`, also under Manticore's legacy `/json/` prefix, and the Elasticsearch-style `/_bulk`. Each parses the body
 * (json-body.ts), calls the engine's JSON API and renders its reply or error (spec section 10).
 */
import type { Hono } from 'hono';
import type { JsonOut } from '../engine/values/cell-format.js';
import type { Engine } from '../engine/engine.js';
import type { JsonApi, JsonValue } from '../engine/json/json-api.js';
import type { Session } from '../engine/session.js';
import { metaAfterJsonWrite } from '../engine/exec/last-meta.js';
import { trackJson, type JsonKind } from '../metrics/json-requests.js';
import { asSearchError } from '../util/errors.js';
import { BodyParseError, isNdjsonType, parseJsonText, parseNdjson } from './json-body.js';
import { esUpdateReply } from './es-update.js';
import { autocompleteReply } from './autocomplete-route.js';
import { checkEsBulk, esBulkErrorJson, esBulkReplyJson, EsBulkError, parseEsBulk } from './json-es-bulk.js';
import {
  bulkReplyJson, deleteReplyJson, insertReplyJson, updateReplyJson, writeErrorJson, writeErrorKind,
} from './json-render.js';
import { errorBody, HTTP_BAD_REQUEST, HTTP_INTERNAL, HTTP_NOT_IMPLEMENTED } from './errors.js';
import type { HttpContext as Context, HttpEnv } from './http-env.js';
import { jsonReply, jsonText, searchRowsReply, send, type TextReply } from './sql-routes.js';

export interface JsonRouteDeps {
  engine: Engine;
  sessionFor(c: Context): Session;
  /** Called with errors the engine did not expect (INTERNAL), after the client got a 500. */
  onInternalError?: (err: unknown) => void;
}

/**
 * The request body. `GET /search` may carry one too (as curl -XGET -d sends it): a fetch Request
 * drops GET bodies, so it is read from Node's request stream when there is one.
 */
async function bodyText(c: Context): Promise<string> {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.req.text();
  const incoming = c.env?.incoming;
  if (!incoming || (!incoming.headers['content-length'] && !incoming.headers['transfer-encoding'])) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The table a request names, for error objects (read leniently: the request may be malformed). */
function requestTable(body: JsonValue | undefined): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const t = (body as Record<string, unknown>).table ?? (body as Record<string, unknown>).index;
  return typeof t === 'string' ? t.toLowerCase() : undefined;
}

function api(deps: JsonRouteDeps): JsonApi | undefined {
  return deps.engine.json;
}

/** `/search` errors: a malformed request 400, anything that fails to run 500 (spec section 10). */
function searchErrorStatus(code: string): number {
  if (code === 'PARSE_ERROR') return HTTP_BAD_REQUEST;
  return code === 'UNSUPPORTED' ? HTTP_NOT_IMPLEMENTED : HTTP_INTERNAL;
}

/** The whole `/search` exchange: body text in, reply out; INTERNAL errors also go to `onInternalError`. */
export async function searchReply(
  json: JsonApi, session: Session, text: string, onInternalError?: (err: unknown) => void,
): Promise<TextReply> {
  let body: JsonValue;
  try {
    body = parseJsonText(text.trim() === '' ? '{}' : text);
  } catch (e) {
    return jsonText(HTTP_BAD_REQUEST, errorBody((e as Error).message));
  }
  try {
    const found = (r: { meta?: { totalFound: number }; rows: unknown[] }) => r.meta?.totalFound ?? r.rows.length;
    return searchRowsReply(await trackJson('select', text, requestTable(body), session, () => json.search(body, session), found));
  } catch (e) {
    const err = asSearchError(e);
    if (err.code === 'INTERNAL') onInternalError?.(e);
    return jsonText(searchErrorStatus(err.code), errorBody(err.message));
  }
}

async function search(c: Context, deps: JsonRouteDeps, json: JsonApi): Promise<Response> {
  let text: string;
  try {
    text = await bodyText(c);
  } catch (e) {
    return jsonReply(c, HTTP_BAD_REQUEST, errorBody((e as Error).message));
  }
  return send(c, await searchReply(json, deps.sessionFor(c), text, deps.onInternalError));
}

/**
 * The JSON write endpoints' operations, by path (without the `/json` prefix), with the kind they count as;
 * `run` gives the reply and the insert's warning the connection's SHOW WARNINGS keeps.
 */
export interface WriteOp { kind: JsonKind; run: (json: JsonApi, body: JsonValue) => Promise<{ out: JsonOut; warning?: string }> }
const insertOp = (replace: boolean): WriteOp => ({
  kind: replace ? 'replace' : 'insert',
  run: async (json, b) => {
    const r = await json.insert(b, replace);
    return { out: insertReplyJson(r), warning: r.warning };
  },
});
export const WRITE_OPS: ReadonlyMap<string, WriteOp> = new Map<string, WriteOp>([
  ['/insert', insertOp(false)], ['/create', insertOp(false)], ['/replace', insertOp(true)], ['/index', insertOp(true)],
  ['/update', { kind: 'update', run: async (json, b) => ({ out: updateReplyJson(await json.update(b)) }) }],
  ['/delete', { kind: 'delete', run: async (json, b) => ({ out: deleteReplyJson(await json.delete(b)) }) }],
]);

/**
 * A write endpoint's exchange: parse, run, render; errors as `{"error":{type,reason,table},"status"}`.
 * `client` names the connection in the query log and holds its SHOW META / SHOW WARNINGS: a write that
 * reached the table's writer starts them afresh (last-meta.ts), a request that did not parse leaves them.
 */
export async function writeReply(
  json: JsonApi, op: WriteOp, text: string, onInternalError?: (err: unknown) => void, client?: Session,
): Promise<TextReply> {
  let body: JsonValue | undefined;
  try {
    body = parseJsonText(text);
    const parsed = body;
    const r = await trackJson(op.kind, text, requestTable(parsed), client, () => op.run(json, parsed));
    if (client) metaAfterJsonWrite(client, r.warning);
    return jsonText(200, r.out);
  } catch (e) {
    if (e instanceof BodyParseError) {
      return jsonText(HTTP_BAD_REQUEST, writeErrorJson('parse_exception', e.message, undefined, HTTP_BAD_REQUEST));
    }
    const err = asSearchError(e);
    if (client && err.code !== 'PARSE_ERROR') metaAfterJsonWrite(client, undefined);
    if (err.code === 'INTERNAL') {
      onInternalError?.(e);
      return jsonText(HTTP_INTERNAL, errorBody(err.message));
    }
    const { status, type } = writeErrorKind(err.code);
    return jsonText(status, writeErrorJson(type, err.message, requestTable(body), status));
  }
}

/** The `/bulk` exchange: the Content-Type must name NDJSON; one reply for all lines. */
export async function bulkReply(json: JsonApi, contentType: string | undefined, text: string, client?: Session): Promise<TextReply> {
  if (!isNdjsonType(contentType)) {
    const reason = contentType === undefined ? 'Content-Type must be set' : 'Content-Type must be application/x-ndjson';
    return jsonText(HTTP_BAD_REQUEST, writeErrorJson('parse_exception', reason, undefined, HTTP_BAD_REQUEST));
  }
  const r = await trackJson('bulk', text, undefined, client, () => json.bulk(parseNdjson(text)));
  if (client && r.metaReset) metaAfterJsonWrite(client, r.warning);
  const reply = bulkReplyJson(r);
  return jsonText(reply.status, reply.body);
}

/** `/_bulk`: Elasticsearch-style action/source pairs, one reply item per document. */
async function esBulk(c: Context, json: JsonApi): Promise<Response> {
  try {
    const text = await bodyText(c);
    checkEsBulk(c.req.header('content-type'), text);
    const reply = esBulkReplyJson(await json.esBulk(parseEsBulk(text)));
    return jsonReply(c, reply.status, reply.body);
  } catch (e) {
    if (e instanceof EsBulkError) return jsonReply(c, HTTP_BAD_REQUEST, esBulkErrorJson(e));
    throw e;
  }
}

/** Adds the JSON endpoints; an engine without a JSON API answers them as unsupported. */
export function registerJsonRoutes(app: Hono<HttpEnv>, deps: JsonRouteDeps): void {
  const route = (path: string, handler: (c: Context, json: JsonApi) => Promise<Response>, methods = ['POST']) => {
    for (const p of [path, `/json${path}`]) {
      app.on(methods, p, (c) => {
        const json = api(deps);
        if (!json) return jsonReply(c, HTTP_NOT_IMPLEMENTED, errorBody(`${c.req.path} - unsupported endpoint`));
        return handler(c, json);
      });
    }
  };
  route('/search', (c, json) => search(c, deps, json), ['GET', 'POST']);
  for (const [path, run] of WRITE_OPS) {
    route(path, async (c, json) => send(c, await writeReply(json, run, await bodyText(c), deps.onInternalError, deps.sessionFor(c))));
  }
  route('/bulk', async (c, json) => send(c, await bulkReply(json, c.req.header('content-type'), await bodyText(c), deps.sessionFor(c))));
  // Buddy's CALL AUTOCOMPLETE over JSON (autocomplete-route.ts)
  app.post('/autocomplete', async (c) => send(c, await autocompleteReply(deps.engine, deps.sessionFor(c), await bodyText(c))));
  // Buddy's Elasticsearch-like partial replace (es-update.ts)
  app.post('/:table/_update/:id', async (c) => send(c, await esUpdateReply(deps.engine, deps.sessionFor(c), c.req.param('table'), c.req.param('id'), await bodyText(c))));
  app.post('/_bulk', (c) => {
    const json = api(deps);
    return json ? esBulk(c, json) : jsonReply(c, HTTP_NOT_IMPLEMENTED, errorBody(`${c.req.path} - unsupported endpoint`));
  });
}
