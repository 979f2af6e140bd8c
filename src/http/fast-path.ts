/**
 * The fast path for the hot endpoints, POST `/sql`, `/search`, `/bulk` and the JSON writes (`/insert`,
 * `/replace`, `/update`, `/delete`, ..., also under `/json/`): read the body from Node's request and
 * write the reply straight to Node's response, skipping the web Request/Response objects and the
 * router the Hono app builds for every request (measured: 0.1 ms of server CPU per /insert). Replies
 * are the routes' own (sqlReply, searchReply, writeReply, bulkReply); anything else (other methods,
 * paths, chunked or oversized bodies) is left to the app.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine/engine.js';
import { errorBody, HTTP_INTERNAL } from './errors.js';
import { bulkReply, searchReply, WRITE_OPS, writeReply } from './json-routes.js';
import type { SessionFor } from './socket-sessions.js';
import { jsonText, sqlReply, type TextReply } from './sql-routes.js';

export interface FastPathOptions {
  engine: Engine;
  /** Bodies declared larger than this go to the app, which answers 413. */
  maxBodyBytes: number;
  /** The app's sessions, so a connection keeps one session whichever handler answers. */
  sessions: SessionFor;
  /** Errors a route did not expect, after the client got a 500 (as the app's onError). */
  onInternalError: (err: unknown) => void;
}

/** Handles the request and returns true, or returns false having touched nothing. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

type Route = (req: IncomingMessage, urlQuery: string, body: string) => Promise<TextReply>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
      // a web Request's text() drops a byte order mark: so does this, to read bodies alike
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    req.on('error', reject);
    req.on('close', () => { if (!req.complete) reject(new Error('request aborted')); });
  });
}

/** Headers and body in one write: the body encoded once, its length read off the bytes. */
function send(res: ServerResponse, r: TextReply): void {
  const body = Buffer.from(r.body, 'utf8');
  res.writeHead(r.status, { 'Content-Type': r.contentType, 'Content-Length': body.length });
  res.end(body);
}

export function createFastPath(opts: FastPathOptions): FastPath {
  const routes = new Map<string, Route>([['/sql', (req, query, body) => sqlReply(opts.engine, opts.sessions(req.socket), query, body)]]);
  // an engine without the JSON API leaves its endpoints to the app, which answers them as unsupported
  const json = opts.engine.json;
  const jsonRoutes: Array<[string, Route]> = json ? [
    ['/search', (req, _q, body) => searchReply(json, opts.sessions(req.socket), body, opts.onInternalError)],
    // a repeated Content-Type reads as the app's web Headers join it
    ['/bulk', (req, _q, body) => bulkReply(json, req.headersDistinct['content-type']?.join(', '), body, opts.sessions(req.socket))],
    ...[...WRITE_OPS].map(([path, op]): [string, Route] => [path, (req, _q, body) => writeReply(json, op, body, opts.onInternalError, opts.sessions(req.socket))]),
  ] : [];
  for (const [path, route] of jsonRoutes) routes.set(path, route).set(`/json${path}`, route);
  return (req, res) => {
    if (req.method !== 'POST' || req.headers['transfer-encoding'] !== undefined) return false;
    const length = req.headers['content-length'];
    if (length === undefined || !(Number(length) <= opts.maxBodyBytes)) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const route = routes.get(q < 0 ? url : url.slice(0, q));
    if (!route) return false;
    const fail = (err: unknown) => {
      opts.onInternalError(err);
      if (res.headersSent) res.destroy();
      else send(res, jsonText(HTTP_INTERNAL, errorBody(err instanceof Error ? err.message : String(err))));
    };
    readBody(req).then(
      (body) => route(req, q < 0 ? '' : url.slice(q + 1), body).then((reply) => send(res, reply), fail),
      () => res.destroy(), // the client went away before its body was complete: nobody to answer
    );
    return true;
  };
}
