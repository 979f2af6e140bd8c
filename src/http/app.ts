/** The HTTP API as one Hono app: SQL over HTTP and the JSON endpoints. */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Engine } from '../engine/engine.js';
import { errorBody, HTTP_INTERNAL, isClientAbort, HTTP_NOT_IMPLEMENTED, HTTP_PAYLOAD_TOO_LARGE } from './errors.js';
import type { HttpContext, HttpEnv } from './http-env.js';
import { prometheusText } from '../metrics/prometheus.js';
import { registerConsoleRoutes, type ConsoleRouteOptions } from './console-routes.js';
import { socketSessions, type SessionFor } from './socket-sessions.js';
import { registerJsonRoutes } from './json-routes.js';
import { jsonReply, registerSqlRoutes } from './sql-routes.js';

/** Largest request body accepted: Manticore's default `max_packet_size`, 128 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 128 * 1024 * 1024;

export interface HttpAppOptions {
  engine: Engine;
  /** Request bodies larger than this get HTTP 413; default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Called with errors a route did not expect, after the client got a 500 (default: stderr). */
  onInternalError?: (err: unknown) => void;
  /** Sessions by connection, when shared with another handler (the fast path); default: the app's own. */
  sessions?: SessionFor;
  /** Where the web console's files are (default: the package's web/console/ and build/). */
  console?: ConsoleRouteOptions;
}

/** The app: `/sql`, `/cli`, `/cli_json`, the JSON API, the web console at `/` and Manticore's JSON errors for everything else. */
export function createHttpApp(opts: HttpAppOptions): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: true });
  const maxSize = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = opts.onInternalError ?? ((err: unknown) => console.error('quarry: http:', err));
  // a client that went away before its body was complete is no fault of ours (and nobody hears the 500)
  const report = (err: unknown) => { if (!isClientAbort(err)) log(err); };
  const tooLarge = (c: HttpContext) => {
    const length = c.req.header('content-length');
    const sent = length ? `${length}` : `more than ${maxSize}`;
    return jsonReply(c, HTTP_PAYLOAD_TOO_LARGE, errorBody(`length out of bounds ${sent}(${maxSize})`));
  };
  const streamLimit = bodyLimit({ maxSize, onError: tooLarge });
  // A declared Content-Length is checked from the header alone: reading the body here would build a
  // full web Request for every request (measured ~7% of a query's CPU). Chunked bodies are counted.
  app.use(async (c, next) => {
    const length = c.req.header('content-length');
    if (length !== undefined) return Number(length) > maxSize ? tooLarge(c) : next();
    return streamLimit(c, next);
  });
  const sessions = opts.sessions ?? socketSessions();
  const sessionFor = (c: HttpContext) => sessions(c.env?.incoming?.socket);
  registerSqlRoutes(app, { engine: opts.engine, sessionFor });
  registerJsonRoutes(app, { engine: opts.engine, sessionFor, onInternalError: report });
  registerConsoleRoutes(app, opts.console);
  // Prometheus scrapes GET /metrics (text format 0.0.4)
  app.get('/metrics', (c) => c.body(prometheusText(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }));
  app.notFound((c) => jsonReply(c, HTTP_NOT_IMPLEMENTED, errorBody(`${c.req.path} - unsupported endpoint`)));
  app.onError((err, c) => {
    report(err);
    const message = err instanceof Error ? err.message : String(err);
    return jsonReply(c, HTTP_INTERNAL, errorBody(message));
  });
  return app;
}
