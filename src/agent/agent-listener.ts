/**
 * The binary API listener (searchd's `listen = host:9312` with no protocol, or `:sphinx`): the server
 * sends its protocol version (u32 1) on accept, reads the client's u32, then framed commands
 * (u16 command, u16 version, u32 length, body). A connection serves one command unless the client
 * sent PERSIST 1 first, as searchd does; replies go out in one write each.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Engine } from '../engine/engine.js';
import { newSession } from '../engine/session.js';
import { runCommand, type CommandEnv } from './commands.js';
import { Cmd, errorReply } from './wire.js';

export interface AgentListener {
  host: string;
  port: number;
  close(): Promise<void>;
}

export interface AgentListenerOptions {
  host: string;
  port: number;
  /** Largest request body (searchd's max_packet_size). */
  maxPacketBytes: number;
}

function serve(engine: Engine, socket: Socket, options: AgentListenerOptions, counters: Record<string, number>, startedAt: number): void {
  const env: CommandEnv = { engine, session: newSession(), startedAt, counters };
  let pending: Buffer = Buffer.alloc(0);
  let greeted = false;
  let persist = false;
  let busy = false;
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  const pump = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      while (!socket.destroyed) {
        if (!greeted) {
          if (pending.length < 4) return;
          pending = pending.subarray(4); // the client's protocol version: any value is accepted
          greeted = true;
          continue;
        }
        if (pending.length < 8) return;
        const cmd = pending.readUInt16BE(0);
        const ver = pending.readUInt16BE(2);
        const len = pending.readUInt32BE(4);
        if (len > options.maxPacketBytes) {
          socket.end(errorReply(ver, `invalid command (code=${cmd}, len=${len})`));
          return;
        }
        if (pending.length < 8 + len) return;
        const body = pending.subarray(8, 8 + len);
        pending = pending.subarray(8 + len);
        if (cmd === Cmd.PERSIST) {
          persist = body.length >= 4 && body.readUInt32BE(0) !== 0;
          continue;
        }
        let out: Buffer | undefined;
        try {
          out = await runCommand(env, cmd, ver, body);
        } catch (e) {
          out = errorReply(ver, `internal error: ${(e as Error).message}`);
        }
        if (!persist) {
          if (out) socket.end(out);
          else socket.end();
          return;
        }
        if (out) socket.write(out);
      }
    } finally {
      busy = false;
    }
  };
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    void pump();
  });
  const hello = Buffer.alloc(4);
  hello.writeUInt32BE(1);
  socket.write(hello);
}

export async function startAgentListener(engine: Engine, options: AgentListenerOptions): Promise<AgentListener> {
  const counters: Record<string, number> = {};
  const startedAt = Date.now();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(engine, socket, options, counters, startedAt);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => { server.off('error', reject); resolve(); });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    host: options.host,
    port,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
