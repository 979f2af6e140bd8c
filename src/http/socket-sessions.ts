/**
 * One session per client connection, as Manticore keeps one per HTTP connection: SHOW META on a
 * keep-alive connection sees the SELECT before it. Shared by the Hono app and the fast path, so a
 * connection keeps one session whichever of them answers. No socket (tests) = a fresh session.
 */
import { newSession, type Session } from '../engine/session.js';

export type SessionFor = (socket: object | undefined) => Session;

/** `connIdOf` gives a socket's connection id (SHOW THREADS' ConnID), for the query log's `conn N (peer)`. */
export function socketSessions(connIdOf: (socket: object) => number | undefined = () => undefined): SessionFor {
  const sessions = new WeakMap<object, Session>();
  return (socket) => {
    if (!socket) return newSession(undefined, undefined, true);
    let session = sessions.get(socket);
    if (!session) {
      session = newSession(undefined, undefined, true);
      session.connId = connIdOf(socket);
      const { remoteAddress, remotePort } = socket as { remoteAddress?: string; remotePort?: number };
      if (remoteAddress) session.peer = `${remoteAddress}:${remotePort}`;
      sessions.set(socket, session);
    }
    return session;
  };
}
