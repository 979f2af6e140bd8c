/**
 * Persistent binary-API connections to remote agents (Manticore's agent_persistent): each connection
 * is opened once, switched to persistent mode with PERSIST 1, and reused for one request at a time.
 * Idle connections wait per host:port, at most `limit` of them (persistent_connections_limit); a
 * connection that fails, times out or is closed by the agent is dropped, never reused.
 */
import type { Socket } from 'node:net';
import { exchange, frame, openAgentSocket, type AgentAddress, type AgentReply, type AgentTimeouts } from './agent-conn.js';
import { Cmd } from './wire.js';

/** Manticore's persistent_connections_limit default. */
export const DEFAULT_POOL_LIMIT = 8;

export class AgentPool {
  readonly #idle = new Map<string, Socket[]>();
  readonly #open = new Set<Socket>();
  #closed = false;

  constructor(readonly limit = DEFAULT_POOL_LIMIT) {}

  /** Sends one command over an idle connection to `to`, or a new one; a stale idle connection is replaced once. */
  async request(to: AgentAddress, cmd: number, ver: number, body: Buffer, t: AgentTimeouts): Promise<AgentReply> {
    const out = frame(cmd, ver, body);
    const idle = this.#take(to);
    if (idle) {
      try {
        return this.#release(to, idle, await exchange(idle, out, false, t.queryMs));
      } catch (e) {
        // the agent may have closed an idle connection (restart, its own timeout): retry on a fresh one
        const msg = (e as Error).message;
        if (msg !== 'agent closed connection' && !msg.startsWith('receiving failure') && !msg.startsWith('error when sending')) throw e;
      }
    }
    const socket = await openAgentSocket(to, t.connectMs);
    this.#track(socket);
    const persist = Buffer.alloc(4);
    persist.writeUInt32BE(1);
    return this.#release(to, socket, await exchange(socket, Buffer.concat([frame(Cmd.PERSIST, 0, persist), out]), true, t.queryMs));
  }

  /** Idle connections in total (for tests and SHOW AGENT STATUS). */
  idleCount(): number {
    let n = 0;
    for (const list of this.#idle.values()) n += list.length;
    return n;
  }

  /** Closes every connection; later requests open (and keep) new ones unless the pool is discarded. */
  close(): void {
    this.#closed = true;
    for (const s of this.#open) s.destroy();
    this.#open.clear();
    this.#idle.clear();
  }

  #track(socket: Socket): void {
    this.#open.add(socket);
    socket.on('error', () => socket.destroy()); // an idle socket's error must not be unhandled
    socket.once('close', () => {
      this.#open.delete(socket);
      for (const list of this.#idle.values()) {
        const i = list.indexOf(socket);
        if (i >= 0) list.splice(i, 1);
      }
    });
  }

  #take(to: AgentAddress): Socket | undefined {
    const list = this.#idle.get(`${to.host}:${to.port}`);
    while (list?.length) {
      const s = list.pop()!;
      if (!s.destroyed) return s;
    }
    return undefined;
  }

  #release(to: AgentAddress, socket: Socket, reply: AgentReply): AgentReply {
    const key = `${to.host}:${to.port}`;
    const list = this.#idle.get(key) ?? [];
    this.#idle.set(key, list);
    if (this.#closed || list.length >= this.limit || socket.destroyed) socket.destroy();
    else list.push(socket);
    return reply;
  }
}
