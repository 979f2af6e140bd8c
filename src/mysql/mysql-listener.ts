/** The MySQL listener: accepts connections, serves each with a MysqlConnection, closes cleanly. */
import { createServer, type Server, type Socket } from 'node:net';
import { metrics } from '../metrics/metrics.js';
import type { AddressInfo } from 'node:net';
import type { SecureContext } from 'node:tls';
import type { Engine } from '../engine/engine.js';
import type { ServerStats } from './command-handler.js';
import { ErrorCode } from './constants.js';
import { MysqlConnection } from './connection.js';
import { DEFAULT_MAX_PACKET_BYTES } from './packet-framer.js';
import { PacketWriter } from './packet-writer.js';
import { writeErr } from './responses.js';
import { logError } from '../util/server-log.js';
import { keepLatest } from '../util/shape-keeper.js';

/** On shutdown, commands in flight get this long before their connections are cut. */
export const MYSQL_CLOSE_GRACE_MS = 5_000;

/** Manticore's words for a connection over max_connections. */
export const MAXED_OUT_MESSAGE = 'maxed out, dismissing client';

export interface MysqlListenerOptions {
  host: string;
  port: number;
  /** Largest request accepted (max_packet_size); default 128M. */
  maxPacketBytes?: number;
  /** Idle time before a client is dropped (Manticore's sphinxql_timeout, default 900 s). */
  idleTimeoutMs?: number;
  /** Connections beyond this many get ER_CON_COUNT_ERROR instead of a greeting (default: no limit). */
  maxConnections?: number;
  /** A request packet must arrive whole within this long once it has started (client_timeout). */
  packetTimeoutMs?: number;
  /** With a context, the greeting offers SSL and an SSLRequest upgrades the connection. */
  tls?: SecureContext;
}

export interface MysqlListener {
  host: string;
  port: number;
  /** Connections open now. */
  readonly connections: number;
  /** Stops accepting, lets commands in flight finish, closes every connection. */
  close(): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** An ERR in place of the greeting, as MySQL clients expect it when the server is full; open connections are untouched. */
function refuse(socket: Socket): void {
  const w = new PacketWriter(0);
  writeErr(w, ErrorCode.TOO_MANY_CONNECTIONS.errno, ErrorCode.TOO_MANY_CONNECTIONS.sqlState, MAXED_OUT_MESSAGE);
  socket.on('error', () => socket.destroy());
  socket.end(w.finish());
  setTimeout(() => socket.destroy(), 1_000).unref();
}

export async function startMysqlListener(engine: Engine, opts: MysqlListenerOptions): Promise<MysqlListener> {
  const open = new Set<MysqlConnection>();
  const stats: ServerStats = { startedAt: Date.now(), connections: 0, questions: 0 };
  const server = createServer((socket) => {
    if (opts.maxConnections !== undefined && open.size >= opts.maxConnections) {
      metrics.maxedOut++;
      return refuse(socket);
    }
    const activityId = metrics.open('mysql', `${socket.remoteAddress}:${socket.remotePort}`);
    const conn = new MysqlConnection(socket, {
      // one id for the handshake, CONNECTION_ID() and SHOW THREADS / PROCESSLIST, as MySQL and Manticore have it
      engine, connectionId: activityId, maxPacketBytes: opts.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES, stats,
      activityId, idleTimeoutMs: opts.idleTimeoutMs, packetTimeoutMs: opts.packetTimeoutMs, tls: opts.tls,
    });
    open.add(conn);
    stats.connections = open.size;
    socket.once('close', () => {
      // the last closed connection (its socket's and Node's stream maps with it) kept while no client is
      // connected (util/shape-keeper.ts): else idle-gc's forced collection dropped the code of the whole
      // command path and the next burst of connections compiled it again. Not one holding part of a
      // packet (up to max_packet_size of a client gone mid-send).
      if (conn.buffered === 0) keepLatest('mysql connection', conn);
      metrics.close(activityId);
      open.delete(conn);
      stats.connections = open.size;
    });
  });
  const bound = await listen(server, opts.host, opts.port);
  // A failing accept (e.g. out of descriptors) must not end the process. Attached once bound: a failed
  // bind is the caller's to report (server.ts words it), not logged here a second time in Node's text.
  server.on('error', (e) => logError(`mysql listener error: ${e.message}`, e));
  let closing: Promise<void> | undefined;
  return {
    host: bound.address,
    port: bound.port,
    get connections() { return open.size; },
    close: () => (closing ??= (async () => {
      const cut = setTimeout(() => { for (const c of open) c.destroy(); }, MYSQL_CLOSE_GRACE_MS);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // the server's close can come before its sockets' close events: wait for both
      const ended = [...open].map((c) => c.closed);
      for (const c of open) c.shutdown();
      await Promise.all([stopped, ...ended]);
      clearTimeout(cut);
    })()),
  };
}
