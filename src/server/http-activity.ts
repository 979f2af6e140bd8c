/** HTTP connections and requests in the process's activity list (SHOW THREADS, SHOW PROCESSLIST). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { metrics } from '../metrics/metrics.js';

const ids = new WeakMap<Socket, number>();

export function trackConnection(socket: Socket): void {
  const id = metrics.open('http', `${socket.remoteAddress}:${socket.remotePort}`);
  ids.set(socket, id);
  socket.once('close', () => metrics.close(id));
}

/** The activity id of an HTTP connection (its `conn N` in the query log). */
export function connectionId(socket: object): number | undefined {
  return ids.get(socket as Socket);
}

export function trackRequest(req: IncomingMessage, res: ServerResponse): void {
  const id = ids.get(req.socket);
  if (id === undefined) return;
  metrics.begin(id, `${req.method ?? ''} ${req.url ?? ''}`);
  res.once('close', () => metrics.end(id));
}

/** A request the lean server answers, in the activity list until the returned function is called. */
export function trackLeanRequest(socket: Socket, method: string, url: string): () => void {
  const id = ids.get(socket);
  if (id === undefined) return () => undefined;
  metrics.begin(id, `${method} ${url}`);
  return () => metrics.end(id);
}
