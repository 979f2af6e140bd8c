/** `/sql`, `/cli` and `/cli_json`: SQL over HTTP, each rendered from the one result model. */
import type { Hono } from 'hono';
import type { JsonOut } from '../engine/values/cell-format.js';
import type { Engine } from '../engine/engine.js';
import type { Result, RowsResult } from '../engine/result.js';
import type { Session } from '../engine/session.js';
import type { HttpContext as Context, HttpEnv } from './http-env.js';
import { errorBody, httpStatusFor, HTTP_BAD_REQUEST, HTTP_NOT_IMPLEMENTED } from './errors.js';
import { toJsonText } from './json-text.js';
import { renderCliReply } from './render-cli.js';
import { renderRawReply } from './render-raw.js';
import { writeSearchJson } from './render-search.js';
import { bodyBytes, type BodyWriter } from './reply-sink.js';
import { isNonSelectVerb, splitStatements } from './sql-statements.js';
import { facetAggregation } from '../engine/group/aggregation-json.js';
import { readCliQuery, readSqlRequest } from './sql-request.js';

export interface SqlRouteDeps {
  engine: Engine;
  /** The session of the connection a request came on (SHOW META after a SELECT on keep-alive). */
  sessionFor(c: Context): Session;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/**
 * A reply before any framework: what both the Hono routes and the fast path send. The body is text, or
 * a writer of its UTF-8 that the sender runs into its own buffer (searchRowsReply): replyBody() gives
 * either as bytes.
 */
export interface TextReply { status: number; body: string | BodyWriter; contentType: string }

/** A reply's body as UTF-8 bytes. */
export function replyBody(r: TextReply): Buffer<ArrayBuffer> {
  return typeof r.body === 'string' ? (Buffer.from(r.body, 'utf8') as Buffer<ArrayBuffer>) : bodyBytes(r.body);
}

/** A JSON reply as text, written with the exact serializer (64-bit integers and float text intact). */
export function jsonText(status: number, body: JsonOut): TextReply {
  return { status, body: toJsonText(body), contentType: JSON_CONTENT_TYPE };
}

/** A SELECT's rows in the `/search` shape, as `/search` and `/sql` answer them. */
export function searchRowsReply(result: RowsResult): TextReply {
  return { status: 200, body: (out) => writeSearchJson(out, result), contentType: JSON_CONTENT_TYPE };
}

/** A JSON reply written with the exact serializer (64-bit integers and float text intact). */
export function jsonReply(c: Context, status: number, body: JsonOut): Response {
  return c.body(toJsonText(body), status as 200, { 'Content-Type': JSON_CONTENT_TYPE });
}

/** A TextReply as the Hono route's Response. */
export function send(c: Context, r: TextReply): Response {
  return c.body(typeof r.body === 'string' ? r.body : bodyBytes(r.body), r.status as 200, { 'Content-Type': r.contentType });
}

function urlQuery(c: Context): string {
  const url = c.req.url;
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

async function bodyText(c: Context): Promise<string> {
  return c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : c.req.text();
}

/** `/sql` without mode: one SELECT, answered in the `/search` shape. */
async function searchSql(engine: Engine, session: Session, query: string): Promise<TextReply> {
  const statements = splitStatements(query);
  if (statements.some((s) => isNonSelectVerb(s.verb))) {
    return jsonText(HTTP_NOT_IMPLEMENTED, errorBody('only SELECT queries are supported'));
  }
  if (statements.length > 1) {
    return jsonText(HTTP_NOT_IMPLEMENTED, errorBody('only FACET multiple queries supported'));
  }
  const [first, ...facets] = await engine.execute(query, session);
  // FACET result sets go beside the hits as `aggregations` (Manticore's AddAggs for /sql)
  const failed = facets.find((r) => r.kind === 'error');
  if (failed?.kind === 'error') return jsonText(httpStatusFor(failed.code, 'sql-search'), errorBody(failed.message));
  if (first?.kind === 'rows' && facets.length) first.aggregations = (facets as RowsResult[]).map(facetAggregation);
  if (first?.kind === 'error') return jsonText(httpStatusFor(first.code, 'sql-search'), errorBody(first.message));
  if (first?.kind !== 'rows') {
    return jsonText(HTTP_NOT_IMPLEMENTED, errorBody('only SELECT queries are supported'));
  }
  return searchRowsReply(first);
}

/**
 * The whole `/sql` exchange: URL query string (without `?`) and body in, reply out. Not an async
 * function: a `mode=raw` statement's reply is one `then` on the engine's promise (a single-row INSERT
 * over HTTP made an async frame and an await here for nothing). Throws come back as rejections.
 */
export function sqlReply(engine: Engine, session: Session, urlQueryText: string, body: string): Promise<TextReply> {
  try {
    const { query, raw } = readSqlRequest(urlQueryText, body);
    if (query.trim() === '') return Promise.resolve(jsonText(HTTP_BAD_REQUEST, errorBody('query missing')));
    if (!raw) return searchSql(engine, session, query);
    return engine.execute(query, session).then(rawReply);
  } catch (e) {
    return Promise.reject(e);
  }
}

function rawReply(results: Result[]): TextReply {
  const reply = renderRawReply(results);
  return jsonText(reply.status, reply.body);
}

async function handleSql(c: Context, deps: SqlRouteDeps): Promise<Response> {
  return send(c, await sqlReply(deps.engine, deps.sessionFor(c), urlQuery(c), await bodyText(c)));
}

async function handleCli(c: Context, deps: SqlRouteDeps, asJson: boolean): Promise<Response> {
  const query = readCliQuery(urlQuery(c), await bodyText(c));
  if (query.trim() === '') return jsonReply(c, HTTP_BAD_REQUEST, errorBody('query missing'));
  const started = performance.now();
  const results = await deps.engine.execute(query, deps.sessionFor(c));
  if (asJson) {
    const reply = renderRawReply(results);
    return jsonReply(c, reply.status, reply.body);
  }
  const reply = renderCliReply(results, (performance.now() - started) / 1000);
  // the table text too: searchd labels every /cli reply as JSON
  return c.body(reply.body, reply.status as 200, { 'Content-Type': JSON_CONTENT_TYPE });
}

/** Adds the SQL endpoints; any method is accepted, as Manticore does (GET carries the query in the URL). */
export function registerSqlRoutes(app: Hono<HttpEnv>, deps: SqlRouteDeps): void {
  app.all('/sql', (c) => handleSql(c, deps));
  app.all('/cli', (c) => handleCli(c, deps, false));
  app.all('/cli_json', (c) => handleCli(c, deps, true));
}
