/** The HTTP listener: the Hono app on a node:http server, closed cleanly on shutdown. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SecureContext } from 'node:tls';
import { getRequestListener } from '@hono/node-server';
import type { Engine } from '../engine/engine.js';
import { createHttpApp } from '../http/app.js';
import { createFastPath } from '../http/fast-path.js';
import { installLeanServer } from '../http/lean/lean-server.js';
import { socketSessions } from '../http/socket-sessions.js';
import type { ListenAddress } from './listen.js';
import {
  answerClientError, applyHttpLimits, checkingIntervalMs, headersTimeoutMs, MAX_HEADER_BYTES, type HttpLimits,
} from './http-limits.js';
import { sniffTls } from './tls-sniff.js';
import { connectionId, trackConnection, trackLeanRequest, trackRequest } from './http-activity.js';
import { logError } from '../util/server-log.js';

/** Idle keep-alive connections are dropped after this long (Node's default is 5 s). */
export const HTTP_KEEP_ALIVE_MS = 65_000;
/** On shutdown, requests in flight get this long to finish before their connections are cut. */
export const HTTP_CLOSE_GRACE_MS = 5_000;

export interface HttpListenerOptions extends HttpLimits {
  maxBodyBytes: number;
  /** With a context, the port also accepts HTTPS (told apart by the first byte). */
  tls?: SecureContext;
  /** False: node:http answers every request (the lean server's reference in tests); default true. */
  lean?: boolean;
}

export interface HttpListener {
  host: string;
  /** The bound port (the real one when 0 was asked for). */
  port: number;
  /** Stops accepting, ends idle connections, waits for requests in flight. */
  close(): Promise<void>;
}

function listen(server: Server, address: ListenAddress): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(address.port, address.host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startHttpListener(
  engine: Engine,
  address: ListenAddress,
  opts: HttpListenerOptions,
): Promise<HttpListener> {
  const { maxBodyBytes } = opts;
  const sessions = socketSessions(connectionId);
  const onInternalError = (err: unknown) => logError(`http: ${err instanceof Error ? err.message : String(err)}`, err);
  const app = createHttpApp({ engine, maxBodyBytes, sessions, onInternalError });
  // POST /sql, /search and the JSON writes skip the web Request/Response layer; the app answers everything else
  const fast = createFastPath({ engine, maxBodyBytes, sessions, onInternalError });
  const slow = getRequestListener(app.fetch);
  // requireHostHeader off: searchd answers HTTP/1.1 requests without Host; node answered them a bare 400
  const server = createServer({ connectionsCheckingInterval: checkingIntervalMs(opts), maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, (req, res) => {
    trackRequest(req, res);
    // the web layer builds the request's URL from Host; without one (HTTP/1.0, or a client that leaves it
    // out, which searchd answers) it answered a bare 400: the address the client reached stands in
    if (req.headers.host === undefined) req.headers.host = localHost(req.socket);
    if (!fast(req, res)) void slow(req, res);
  });
  // the hot requests skip node:http too, on connections that send nothing else (lean/lean-server.ts)
  const lean = opts.lean === false ? undefined : installLeanServer(server, {
    engine, maxBodyBytes, sessions, onInternalError, maxHeadBytes: MAX_HEADER_BYTES, onRequest: trackLeanRequest,
  });
  server.on('connection', trackConnection);
  server.keepAliveTimeout = HTTP_KEEP_ALIVE_MS;
  // A request the parser refuses gets a 400/431 and a close; one that resets its socket mid-request
  // must not take the process down.
  server.on('clientError', answerClientError);
  if (opts.tls) sniffTls(server, { context: opts.tls, firstByteTimeoutMs: headersTimeoutMs(opts) });
  // last, so a connection over max_connections is refused before anything reads from it
  applyHttpLimits(server, opts);
  const bound = await listen(server, address);
  return {
    host: bound.address,
    port: bound.port,
    close: () =>
      new Promise<void>((resolve) => {
        const cut = setTimeout(() => { server.closeAllConnections(); lean?.closeAllConnections(); }, HTTP_CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
        lean?.closeIdleConnections();
      }),
  };
}

/** The address and port a socket was reached on, as a Host header names them. */
function localHost(socket: import('node:net').Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return `${address.includes(':') ? `[${address}]` : address}:${socket.localPort ?? 0}`;
}
