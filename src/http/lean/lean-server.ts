/**
 * The lean HTTP/1.1 server in front of a node:http server: it takes node's place as the listener of
 * new connections, answers the hot endpoints' requests itself (lean-connection.ts) and gives node:http
 * any connection at the first request it does not take, so node:http's behaviour (routing, errors,
 * timeouts, HEAD, chunked bodies, 100-continue, upgrades) is untouched. Why: node:http's parsing,
 * request and response objects and header handling cost about 0.2 ms of CPU per request (README,
 * Benchmarks). TLS sockets go to node:http directly. The server's other 'connection' listeners
 * (activity, max_connections, the TLS sniffer) stay where they are.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { createFastRoutes, type FastRouteOptions } from '../fast-routes.js';
import { LeanConnection, type LeanServerContext } from './lean-connection.js';
import { keepLatest } from '../../util/shape-keeper.js';

export interface LeanServerOptions extends FastRouteOptions {
  /** node:http's limit on a request head (its maxHeaderSize): a longer one is node's to refuse. */
  maxHeadBytes: number;
  /** The request is in the activity list until the returned function is called. */
  onRequest: LeanServerContext['onRequest'];
}

export interface LeanServer {
  /** Closes connections with no request running or partly read (as node's closeIdleConnections). */
  closeIdleConnections(): void;
  /** Destroys every lean connection (as node's closeAllConnections). */
  closeAllConnections(): void;
}

/** Installs the lean server on `server`; call right after createServer, before other 'connection' listeners. */
export function installLeanServer(server: Server, opts: LeanServerOptions): LeanServer {
  const [nodeListener] = server.listeners('connection') as Array<(socket: Socket) => void>;
  if (!nodeListener) throw new Error('installLeanServer: the server has no connection listener');
  server.removeListener('connection', nodeListener);
  const connections = new Map<Socket, LeanConnection>();
  let closing = false;
  const ctx: LeanServerContext = {
    routes: createFastRoutes(opts),
    maxBodyBytes: opts.maxBodyBytes,
    maxHeadBytes: opts.maxHeadBytes,
    keepAliveTimeoutMs: () => server.keepAliveTimeout,
    requestTimeoutMs: () => server.requestTimeout,
    closing: () => closing,
    onInternalError: opts.onInternalError,
    onRequest: opts.onRequest,
    handOver: (socket) => {
      connections.delete(socket);
      nodeListener.call(server, socket);
    },
    clientError: (err, socket) => {
      if (!server.emit('clientError', err, socket)) socket.destroy(err);
    },
  };
  server.prependListener('connection', (socket: Socket) => {
    if (socket instanceof TLSSocket) return nodeListener.call(server, socket);
    const c = new LeanConnection(socket, ctx);
    connections.set(socket, c);
    socket.once('close', () => {
      connections.delete(socket);
      // kept while no client is connected, as the MySQL listener's (util/shape-keeper.ts keepLatest); not
      // one holding part of a request (a body of up to max_body_bytes from a client gone mid-send)
      if (c.idle) keepLatest('http connection', c);
    });
  });
  server.once('close', () => { closing = true; });
  return {
    closeIdleConnections() {
      closing = true;
      for (const c of connections.values()) if (c.idle) c.socket.destroy();
    },
    closeAllConnections() {
      for (const c of connections.values()) c.socket.destroy();
    },
  };
}
