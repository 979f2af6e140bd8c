/**
 * The hot endpoints' routes without any HTTP server around them: POST `/sql`, `/search`, `/bulk` and
 * the JSON writes (`/insert`, `/replace`, `/update`, `/delete`, ..., also under `/json/`), each a
 * function from the request's parts to the reply the Hono app would give. Two servers share them: the
 * node:http fast path (fast-path.ts) and the lean HTTP/1.1 server (lean/), so both answer alike.
 */
import type { Engine } from '../engine/engine.js';
import { errorBody, HTTP_INTERNAL } from './errors.js';
import { bulkReply, searchReply, WRITE_OPS, writeReply } from './json-routes.js';
import type { SessionFor } from './socket-sessions.js';
import { jsonText, sqlReply, type TextReply } from './sql-routes.js';

export interface FastRouteOptions {
  engine: Engine;
  /** Bodies declared larger than this go to the app, which answers 413. */
  maxBodyBytes: number;
  /** The app's sessions, so a connection keeps one session whichever handler answers. */
  sessions: SessionFor;
  /** Errors a route did not expect, after the client got a 500 (as the app's onError). */
  onInternalError: (err: unknown) => void;
}

/** What a route reads of a request: its connection, URL query (without `?`), Content-Type and body text. */
export interface FastRequest {
  socket: object;
  urlQuery: string;
  /** Repeated Content-Type headers joined with `, `, as the app's web Headers join them. */
  contentType: string | undefined;
  body: string;
}

export type FastRoute = (req: FastRequest) => Promise<TextReply>;

/** The route of a POST to `path` (the URL before `?`), or undefined when the app must answer it. */
export type FastRoutes = (path: string) => FastRoute | undefined;

export function createFastRoutes(opts: FastRouteOptions): FastRoutes {
  const { engine, sessions } = opts;
  const routes = new Map<string, FastRoute>([['/sql', (r) => sqlReply(engine, sessions(r.socket), r.urlQuery, r.body)]]);
  // an engine without the JSON API leaves its endpoints to the app, which answers them as unsupported
  const json = engine.json;
  const jsonRoutes: Array<[string, FastRoute]> = json ? [
    ['/search', (r) => searchReply(json, sessions(r.socket), r.body, opts.onInternalError)],
    ['/bulk', (r) => bulkReply(json, r.contentType, r.body, sessions(r.socket))],
    ...[...WRITE_OPS].map(([path, op]): [string, FastRoute] => [path, (r) => writeReply(json, op, r.body, opts.onInternalError, sessions(r.socket))]),
  ] : [];
  for (const [path, route] of jsonRoutes) routes.set(path, route).set(`/json${path}`, route);
  return (path) => routes.get(path);
}

/** The 500 a route's unexpected failure gets, after `onInternalError` heard of it. */
export function internalErrorReply(err: unknown, onInternalError: (err: unknown) => void): TextReply {
  onInternalError(err);
  return jsonText(HTTP_INTERNAL, errorBody(err instanceof Error ? err.message : String(err)));
}

/** Body bytes as the routes read them: UTF-8, a leading byte order mark dropped (as a web Request's text() does). */
export function bodyText(bytes: Buffer, start = 0, end = bytes.length): string {
  const text = bytes.toString('utf8', start, end);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
