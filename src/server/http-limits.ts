/**
 * Manticore's searchd limits on the HTTP listener: `max_connections` (one more connection is told
 * "maxed out" and closed; open ones are untouched) and `client_timeout` (headers, body and the
 * wait between keep-alive requests are bounded, so a slowloris holds nothing for long).
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';
import { MAXED_OUT_MESSAGE } from '../mysql/mysql-listener.js';
import { metrics } from '../metrics/metrics.js';
import { TLS_HANDSHAKE } from './tls-sniff.js';

/** Manticore's client_timeout default (5 minutes). */
export const DEFAULT_CLIENT_TIMEOUT_MS = 300_000;
/** Headers must arrive within this long (or client_timeout when it is shorter). */
export const HEADERS_TIMEOUT_MS = 30_000;

export interface HttpLimits {
  /** Open connections beyond this are refused (default: no limit). */
  maxConnections?: number;
  /** A whole request must arrive within this long (default DEFAULT_CLIENT_TIMEOUT_MS). */
  clientTimeoutMs?: number;
  /** The listener also takes HTTPS (tls-sniff.ts): a refused HTTPS client is told over TLS. */
  tls?: SecureContext;
}

const REFUSAL_BODY = JSON.stringify({ error: MAXED_OUT_MESSAGE });
const REFUSAL = `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=UTF-8\r\n` +
  `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}\r\nConnection: close\r\n\r\n${REFUSAL_BODY}`;

/** Longest request line plus headers: a long `GET /sql?query=...` fits, as in Manticore (node's default is 16 KiB). */
export const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * The reply to a request node's parser refused (bad framing, headers too large), then the connection closes.
 * After the responses to the requests before it (pipelined in the same packet, node:http is still computing
 * one): a 400 written at once cut it off, and with bytes already written the connection closed without a
 * word, which also closed a keep-alive connection, or one the lean server answered and handed over, silently.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  // node:http's response in flight on this socket (null once it finished, undefined when there was none):
  // an earlier request's when that request was read whole, else the bad request's own (its body was bad)
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req?.complete && !socket.destroyed) {
    inFlight.once('finish', () => answerClientError(err, socket));
    inFlight.once('close', () => { if (!inFlight.writableFinished) socket.destroy(); });
    return;
  }
  if (socket.writable && !inFlight?.headersSent && err.code !== 'ECONNRESET' && err.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({ error: tooLarge ? `request headers larger than ${MAX_HEADER_BYTES} bytes` : 'bad HTTP request' });
    socket.end(`HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\nContent-Type: application/json; charset=UTF-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), 1_000).unref();
    return;
  }
  socket.destroy();
}

/** How often node checks the header and request timeouts: a fraction of the timeout, at most its 30 s default. */
export function checkingIntervalMs(limits: HttpLimits): number {
  const timeout = limits.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  return Math.max(50, Math.min(30_000, Math.floor(timeout / 4)));
}

/** Headers must be complete this long after the connection (or the previous request) began. */
export function headersTimeoutMs(limits: HttpLimits): number {
  return Math.min(HEADERS_TIMEOUT_MS, limits.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS);
}

/** Applies the limits; call after every other 'connection' handler is in place. */
export function applyHttpLimits(server: Server, limits: HttpLimits): void {
  const timeout = limits.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  server.requestTimeout = timeout;
  server.headersTimeout = headersTimeoutMs(limits);
  server.keepAliveTimeout = Math.min(server.keepAliveTimeout, timeout);
  const max = limits.maxConnections;
  if (max === undefined) return;
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      refuse(socket, limits.tls);
      return;
    }
    open++;
    socket.once('close', () => open--);
    for (const h of handlers) h.call(server, socket);
  });
}

/**
 * Answers a connection over max_connections with the 503 and closes it. On a listener that also takes
 * HTTPS the first byte tells which (0x16 opens a TLS handshake, as in tls-sniff.ts): an HTTPS client
 * reads plain text as a broken handshake (curl: "wrong version number", no status), so it is told
 * over TLS. Either way the socket is gone within a second.
 */
function refuse(socket: Socket, tls: SecureContext | undefined): void {
  metrics.maxedOut++;
  socket.on('error', () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
  if (!tls) {
    socket.end(REFUSAL);
    return;
  }
  socket.once('data', (chunk: Buffer) => {
    if (chunk[0] !== TLS_HANDSHAKE) {
      socket.end(REFUSAL);
      return;
    }
    socket.pause();
    socket.unshift(chunk);
    const secure = new TLSSocket(socket, { isServer: true, secureContext: tls });
    secure.on('error', () => secure.destroy());
    // written once the handshake is done
    secure.end(REFUSAL);
    process.nextTick(() => socket.resume());
  });
}
