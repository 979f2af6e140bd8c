/**
 * One session per client connection, as Manticore keeps one per HTTP connection: SHOW META on a
 * keep-alive connection sees the SELECT before it. Shared by the Hono app and the fast path, so a
 * connection keeps one session whichever of them answers. No socket (tests) = a fresh session.
 */
import { newSession, type Session } from '../engine/session.js';

export type SessionFor = (socket: object | undefined) => Session;

export function socketSessions(): SessionFor {
  const sessions = new WeakMap<object, Session>();
  return (socket) => {
    if (!socket) return newSession();
    let session = sessions.get(socket);
    if (!session) {
      session = newSession();
      sessions.set(socket, session);
    }
    return session;
  };
}
