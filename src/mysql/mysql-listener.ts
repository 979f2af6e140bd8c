/** The MySQL listener: accepts connections, serves each with a MysqlConnection, closes cleanly. */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { SecureContext } from 'node:tls';
import type { Engine } from '../engine/engine.js';
import type { ServerStats } from './command-handler.js';
import { MysqlConnection } from './connection.js';
import { DEFAULT_MAX_PACKET_BYTES } from './packet-framer.js';

/** On shutdown, commands in flight get this long before their connections are cut. */
export const MYSQL_CLOSE_GRACE_MS = 5_000;

export interface MysqlListenerOptions {
  host: string;
  port: number;
  /** Largest request accepted (max_packet_size); default 128M. */
  maxPacketBytes?: number;
  /** Idle time before a client is dropped (Manticore's sphinxql_timeout, default 900 s). */
  idleTimeoutMs?: number;
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

export async function startMysqlListener(engine: Engine, opts: MysqlListenerOptions): Promise<MysqlListener> {
  const open = new Set<MysqlConnection>();
  const stats: ServerStats = { startedAt: Date.now(), connections: 0, questions: 0 };
  let nextId = 1;
  const server = createServer((socket) => {
    const conn = new MysqlConnection(socket, {
      engine, connectionId: nextId++, maxPacketBytes: opts.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES, stats,
      idleTimeoutMs: opts.idleTimeoutMs, tls: opts.tls,
    });
    open.add(conn);
    stats.connections = open.size;
    socket.once('close', () => {
      open.delete(conn);
      stats.connections = open.size;
    });
  });
  // A failing accept (e.g. out of descriptors) must not end the process.
  server.on('error', (e) => console.error('quarry: mysql listener error:', e));
  const bound = await listen(server, opts.host, opts.port);
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
