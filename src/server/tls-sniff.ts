/**
 * One port for HTTP and HTTPS, as Manticore's HTTP listener: the first byte of a connection tells
 * them apart (0x16 opens a TLS handshake record). The node:http server keeps listening and tracking
 * connections itself; only its 'connection' handler is put behind the sniffer.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';

/** First byte of a TLS record carrying a handshake. */
export const TLS_HANDSHAKE = 0x16;

export interface SniffOptions {
  context: SecureContext;
  /** A client that sends nothing for this long is cut before it reaches the HTTP parser. */
  firstByteTimeoutMs: number;
}

/** Routes each new connection to the HTTP parser, as plain text or through a server-side TLSSocket. */
export function sniffTls(server: Server, opts: SniffOptions): void {
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const serve = (socket: Socket) => { for (const h of handlers) h.call(server, socket); };
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(opts.firstByteTimeoutMs, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    // a client gone before its first byte: node:http keeps half-open sockets (allowHalfOpen) and nothing
    // reads this one yet, so it would hold its max_connections slot until the first-byte timeout
    const gone = () => socket.destroy();
    socket.once('end', gone);
    socket.once('data', (chunk: Buffer) => {
      socket.removeListener('end', gone);
      socket.pause();
      socket.setTimeout(0);
      // the HTTP parser or the TLS layer reads this chunk again
      socket.unshift(chunk);
      if (chunk[0] !== TLS_HANDSHAKE) {
        serve(socket);
      } else {
        const secure = new TLSSocket(socket, { isServer: true, secureContext: opts.context });
        secure.on('error', () => secure.destroy());
        serve(secure as Socket);
      }
      process.nextTick(() => socket.resume());
    });
  });
}
