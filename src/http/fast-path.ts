/**
 * The fast path inside node:http for the hot endpoints (fast-routes.ts): read the body from Node's
 * request and write the reply straight to Node's response, skipping the web Request/Response objects
 * and the router the Hono app builds for every request (measured: 0.1 ms of server CPU per /insert).
 * Anything else (other methods, paths, chunked or oversized bodies) is left to the app. Connections the
 * lean server (lean/) keeps never reach node:http; this path answers the ones it hands over.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyText, createFastRoutes, internalErrorReply, type FastRouteOptions } from './fast-routes.js';
import { replyBody, type TextReply } from './sql-routes.js';

export type FastPathOptions = FastRouteOptions;

/** Handles the request and returns true, or returns false having touched nothing. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(bodyText(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))));
    req.on('error', reject);
    req.on('close', () => { if (!req.complete) reject(new Error('request aborted')); });
  });
}

/** Headers and body in one write: the body encoded once, its length read off the bytes. */
function send(res: ServerResponse, r: TextReply): void {
  const body = replyBody(r);
  res.writeHead(r.status, { 'Content-Type': r.contentType, 'Content-Length': body.length });
  res.end(body);
}

export function createFastPath(opts: FastPathOptions): FastPath {
  const routes = createFastRoutes(opts);
  return (req, res) => {
    if (req.method !== 'POST' || req.headers['transfer-encoding'] !== undefined) return false;
    const length = req.headers['content-length'];
    if (length === undefined || !(Number(length) <= opts.maxBodyBytes)) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const route = routes(q < 0 ? url : url.slice(0, q));
    if (!route) return false;
    const fail = (err: unknown) => {
      if (res.headersSent) {
        opts.onInternalError(err);
        res.destroy();
      } else {
        send(res, internalErrorReply(err, opts.onInternalError));
      }
    };
    readBody(req).then(
      // a repeated Content-Type reads as the app's web Headers join it
      (body) => route({ socket: req.socket, urlQuery: q < 0 ? '' : url.slice(q + 1), contentType: req.headersDistinct['content-type']?.join(', '), body })
        .then((reply) => send(res, reply), fail),
      () => res.destroy(), // the client went away before its body was complete: nobody to answer
    );
    return true;
  };
}
